import { lazy, Suspense } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { BrowserRouter, Navigate, Route, Routes, useLocation } from 'react-router';
import { queryDefaults } from '@rewards/contract/query-defaults';
import { ConsoleApiError } from '../api/client.ts';
import { t } from '../i18n/t.ts';
import { Shell } from '../features/shell/Shell.tsx';
import { SignInPage } from '../features/sign-in/SignInPage.tsx';
import { EnrolPage } from '../features/enrol/EnrolPage.tsx';
import { StepUpProvider } from '../features/step-up/StepUp.tsx';
import { SearchPage } from '../features/participants/SearchPage.tsx';
import { SessionProvider, useMe } from './session.tsx';

// The less used screens load when first opened.
const ParticipantPage = lazy(() => import('../features/participants/ParticipantPage.tsx'));
const AuditPage = lazy(() => import('../features/audit/AuditPage.tsx'));
const StaffPage = lazy(() => import('../features/staff/StaffPage.tsx'));
const SettingsPage = lazy(() => import('../features/settings/SettingsPage.tsx'));
const CodesPage = lazy(() => import('../features/codes/CodesPage.tsx'));
const TranslationsPage = lazy(() => import('../features/translations/TranslationsPage.tsx'));
const ContentPage = lazy(() => import('../features/content/ContentPage.tsx'));
const ReportsPage = lazy(() => import('../features/reports/ReportsPage.tsx'));
const ImportsPage = lazy(() => import('../features/imports/ImportsPage.tsx'));
const AccountPage = lazy(() => import('../features/account/AccountPage.tsx'));
const ApiKeysPage = lazy(() => import('../features/api-keys/ApiKeysPage.tsx'));
const WebhooksPage = lazy(() => import('../features/webhooks/WebhooksPage.tsx'));
const EarningRulesPage = lazy(() => import('../features/earning-rules/EarningRulesPage.tsx'));

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // The portal's policy too (decision 059): a refusal is an answer, only network failures get a second try.
        ...queryDefaults((error) => (error instanceof ConsoleApiError ? error.status : undefined)),
        staleTime: 30_000,
      },
      // A write is sent once (never again by itself) and, offline, fails at once with the network
      // message rather than waiting unseen for the browser's online event, as it did before mutations.
      mutations: { retry: false, networkMode: 'always' },
    },
  });
}

/** Signed in, the frame and the screens; not, the sign-in page (which returns here after). */
function SignedIn() {
  const me = useMe();
  const location = useLocation();
  if (me.isPending) return <p className="loading">{t('common.loading')}</p>;
  if (me.isError)
    return (
      <p className="error" role="alert">
        {t('error.network')}
      </p>
    );
  if (!me.data) return <Navigate to="/sign-in" replace state={{ from: location.pathname + location.search }} />;
  return (
    <SessionProvider me={me.data}>
      <StepUpProvider>
        <Suspense fallback={<p className="loading">{t('common.loading')}</p>}>
          <Routes>
            <Route element={<Shell />}>
              <Route index element={<Navigate to="/participants" replace />} />
              <Route path="participants" element={<SearchPage />} />
              <Route path="participants/:clientId/:participantId" element={<ParticipantPage />} />
              <Route path="audit" element={<AuditPage />} />
              <Route path="staff" element={<StaffPage />} />
              <Route path="settings" element={<SettingsPage />} />
              <Route path="settings/api-keys" element={<ApiKeysPage />} />
              <Route path="settings/webhooks" element={<WebhooksPage />} />
              <Route path="codes" element={<CodesPage />} />
              <Route path="translations" element={<TranslationsPage />} />
              <Route path="content" element={<ContentPage />} />
              <Route path="reports" element={<ReportsPage />} />
              <Route path="imports" element={<ImportsPage />} />
              <Route path="programs/earning-rules/*" element={<EarningRulesPage />} />
              <Route path="account" element={<AccountPage />} />
              <Route path="*" element={<p>{t('error.noSuchPage')}</p>} />
            </Route>
          </Routes>
        </Suspense>
      </StepUpProvider>
    </SessionProvider>
  );
}

export function App({ queryClient }: { queryClient: QueryClient }) {
  return (
    <QueryClientProvider client={queryClient}>
      <BrowserRouter basename="/console">
        <Routes>
          <Route path="/sign-in" element={<SignInPage />} />
          <Route path="/enrol" element={<EnrolPage />} />
          <Route path="/*" element={<SignedIn />} />
        </Routes>
      </BrowserRouter>
    </QueryClientProvider>
  );
}
