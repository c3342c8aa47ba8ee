import { useEffect } from 'react';
import { rulesKey } from '@rewards/contract/content-rules';
import { isSessionTimeout, useApiQuery } from '../../api/queries.ts';
import { queryKeys } from '../../api/query-keys.ts';
import { useI18n } from '../../i18n/I18nContext.tsx';
import { useAppState, useServices } from '../../state/StoreContext.tsx';
import { errorText } from '../../state/errors.ts';
import { updateUser } from '../../state/session.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { ReadStatus } from '../../ui/ReadStatus.tsx';
import { FallbackNotice, ServerHtml } from './ContentBody.tsx';
import { getProgramNames } from './getProgramNames.ts';
import { getPublished, type ContentState } from './useContent.ts';
import './content.css';

interface ProgramRules {
  program: string;
  state: ContentState;
}

/**
 * /rules: one section per program the participant is in (GET user/program-names), each with its
 * rules text (content key `rules.<program name>`). Failures are 'exportRules' errors (spec
 * section 8); a program without published rules says so in its section.
 */
export default function RulesPage() {
  const services = useServices();
  const { api, store } = services;
  const { t, mediaLabel } = useI18n();
  const locale = useAppState((s) => s.locale.code);
  const errors = useAppState((s) => s.errors);
  const { answer, retry } = useApiQuery({
    queryKey: queryKeys.rules.inLocale(locale),
    queryFn: async () => {
      const programs = (await getProgramNames(api)).participantRules;
      // The footer link follows the list, so keep the stored user in step with the server.
      updateUser(services, { participantRules: programs });
      return Promise.all(
        programs.map(async (program): Promise<ProgramRules> => {
          try {
            return { program, state: await getPublished(api, rulesKey(program), locale) };
          } catch (error) {
            return { program, state: { status: 'failed', error } };
          }
        }),
      );
    },
  });

  // The failures of the answer shown are the page's errors: none while loading, the list's or the
  // sections' once answered (dismissing first, so StrictMode's second run adds nothing).
  useEffect(() => {
    store.dismissErrors('exportRules');
    const failed =
      answer.status === 'failed'
        ? [answer.error]
        : answer.status === 'ready'
          ? answer.data.flatMap(({ state }) => (state.status === 'failed' ? [state.error] : []))
          : [];
    for (const error of failed) if (!isSessionTimeout(error)) store.addError('exportRules', error);
  }, [answer, store]);

  const tryAgain = () => {
    store.dismissErrors('exportRules');
    retry();
  };

  const ruleErrors = errors.filter((e) => e.errorType === 'exportRules');
  const ready = answer.status === 'ready' ? answer.data : [];
  const firstLocale = ready.find((p) => p.state.status === 'ready');

  return (
    <article className="content">
      <h1 tabIndex={-1}>{t('rules.heading')}</h1>
      {ruleErrors.length > 0 ? (
        <div className="content__failed">
          {ruleErrors.map((error) => (
            <Alert key={error.errorId} kind="error" onDismiss={() => store.dismissError(error.errorId)} dismissLabel={t('common.dismiss')}>
              {errorText(error, t, mediaLabel())}
            </Alert>
          ))}
          <Button variant="secondary" onClick={tryAgain}>
            {t('common.tryAgain')}
          </Button>
        </div>
      ) : null}
      {answer.status === 'loading' ? <ReadStatus status="loading" /> : null}
      {answer.status === 'ready' && ready.length === 0 ? <p className="content__muted">{t('rules.none')}</p> : null}
      {ready.length > 0 ? <p className="content__lead">{t('rules.intro')}</p> : null}
      {firstLocale?.state.status === 'ready' ? <FallbackNotice locale={firstLocale.state.locale} /> : null}
      {ready.map(({ program, state }, index) => (
        <section key={program} className="rules__program" aria-labelledby={`rules-program-${index}`}>
          <h2 id={`rules-program-${index}`}>{program}</h2>
          {state.status === 'ready' ? <ServerHtml html={state.html} locale={state.locale} /> : null}
          {state.status === 'missing' ? <p className="content__muted">{t('content.error.notFound')}</p> : null}
        </section>
      ))}
    </article>
  );
}
