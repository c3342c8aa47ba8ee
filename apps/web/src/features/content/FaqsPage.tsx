import { useMemo } from 'react';
import { contentKeys } from '@rewards/contract/content-rules';
import { useI18n } from '../../i18n/I18nContext.tsx';
import { ContentStatus, FallbackNotice, ServerHtml, useForeignLanguage, useInAppLinks } from './ContentBody.tsx';
import { splitFaqs } from './faqSections.ts';
import { useContent } from './useContent.ts';
import './content.css';

/** /faqs: an accordion of native <details>, keyboard- and screen-reader-friendly as it is. */
export default function FaqsPage() {
  const { t } = useI18n();
  const { state, reload } = useContent(contentKeys.faqs);
  const onClick = useInAppLinks();
  const language = useForeignLanguage(state.status === 'ready' ? state.locale : '');
  const faqs = useMemo(() => (state.status === 'ready' ? splitFaqs(state.html) : null), [state]);

  return (
    <article className="content">
      <h1 tabIndex={-1}>{t('faqs.heading')}</h1>
      {state.status !== 'ready' || !faqs ? (
        <ContentStatus state={state} onRetry={reload} />
      ) : (
        <>
          <FallbackNotice locale={state.locale} />
          {faqs.introHtml ? <ServerHtml html={faqs.introHtml} locale={state.locale} /> : null}
          {faqs.sections.length === 0 ? (
            <p className="content__muted">{t('faqs.none')}</p>
          ) : (
            <>
              <p className="content__lead">{t('faqs.intro')}</p>
              <div className="faqs" {...language}>
                {faqs.sections.map((section, index) => (
                  <details key={index} className="faqs__item">
                    <summary className="faqs__question">{section.question}</summary>
                    <div className="faqs__answer">
                      {/* Same origin and guarantees as ServerHtml: a slice of the server's HTML. */}
                      <div className="md" onClick={onClick} dangerouslySetInnerHTML={{ __html: section.answerHtml }} />
                    </div>
                  </details>
                ))}
              </div>
            </>
          )}
        </>
      )}
    </article>
  );
}
