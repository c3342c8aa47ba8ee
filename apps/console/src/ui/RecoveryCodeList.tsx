import { useState } from 'react';
import { t } from '../i18n/t.ts';

/** Recovery codes shown this once (enrolment, your account): the list, a copy and a download for `email`. */
export function RecoveryCodeList({ codes, email, label }: { codes: string[]; email: string; label: string }) {
  const [copied, setCopied] = useState(false);
  const text = codes.join('\n');
  const download = `data:text/plain;charset=utf-8,${encodeURIComponent(`${t('enrol.codesFileHeader', { email })}\n\n${text}\n`)}`;
  return (
    <>
      <ol className="codes" aria-label={label}>
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <div className="actions">
        <button
          type="button"
          className="button"
          onClick={() =>
            void navigator.clipboard.writeText(text).then(
              () => setCopied(true),
              () => setCopied(false),
            )
          }
        >
          {t('enrol.copy')}
        </button>
        <a className="button" href={download} download="rewards-console-recovery-codes.txt">
          {t('enrol.download')}
        </a>
        <span role="status">{copied ? t('enrol.copied') : ''}</span>
      </div>
    </>
  );
}
