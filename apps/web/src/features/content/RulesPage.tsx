import { useEffect, useState } from 'react';
import { rulesKey } from '@rewards/contract/content-rules';
import { RequestError } from '../../api/client.ts';
import { useI18n } from '../../i18n/I18nContext.tsx';
import { useAppState, useServices } from '../../state/StoreContext.tsx';
import { errorText } from '../../state/errors.ts';
import { updateUser } from '../../state/session.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { FallbackNotice, ServerHtml } from './ContentBody.tsx';
import { getContent } from './getContent.ts';
import { getProgramNames } from './getProgramNames.ts';
import { contentFailure, contentReady, type ContentState } from './useContent.ts';
import './content.css';

interface ProgramRules {
  program: string;
  state: ContentState;
}

type PageState = { status: 'loading' } | { status: 'failed' } | { status: 'ready'; programs: ProgramRules[] };

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
  const [attempt, setAttempt] = useState(0);
  // Each answer remembers which request it answers: anything older reads as loading.
  const request = `${locale}|${attempt}`;
  const [answer, setAnswer] = useState<{ request: string; page: PageState } | null>(null);
  const page: PageState = answer?.request === request ? answer.page : { status: 'loading' };

  useEffect(() => {
    let live = true;
    store.dismissErrors('exportRules');
    const setPage = (next: PageState) => setAnswer({ request, page: next });
    const fail = (error: unknown) => {
      if (!live || (error instanceof RequestError && error.sessionTimeout)) return;
      store.addError('exportRules', error);
    };
    void (async () => {
      let programs: string[];
      try {
        programs = (await getProgramNames(api)).participantRules;
      } catch (error) {
        fail(error);
        if (live) setPage({ status: 'failed' });
        return;
      }
      if (!live) return;
      // The footer link follows the list, so keep the stored user in step with the server.
      updateUser(services, { participantRules: programs });
      const sections = await Promise.all(
        programs.map(async (program): Promise<ProgramRules> => {
          try {
            return { program, state: contentReady(await getContent(api, rulesKey(program), locale)) };
          } catch (error) {
            const state = contentFailure(error);
            if (state.status === 'failed') fail(error);
            return { program, state };
          }
        }),
      );
      if (live) setPage({ status: 'ready', programs: sections });
    })();
    return () => {
      live = false;
    };
  }, [api, store, services, locale, request]);

  const ruleErrors = errors.filter((e) => e.errorType === 'exportRules');
  const ready = page.status === 'ready' ? page.programs : [];
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
          <Button variant="secondary" onClick={() => setAttempt((n) => n + 1)}>
            {t('common.tryAgain')}
          </Button>
        </div>
      ) : null}
      {page.status === 'loading' ? (
        <div className="content__loading" role="status">
          <Spinner />
          <span>{t('common.loading')}</span>
        </div>
      ) : null}
      {page.status === 'ready' && ready.length === 0 ? <p className="content__muted">{t('rules.none')}</p> : null}
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
