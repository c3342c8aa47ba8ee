import { t } from '../i18n/t.ts';
import { Field } from './Form.tsx';
import { QrCode } from './QrCode.tsx';

/** A new authenticator app's secret: its QR code, and the secret in groups of four to type by hand (enrolment, your account). */
export function TotpSecret({ secret }: { secret: { totpSecret: string; otpauthUri: string } }) {
  return (
    <div className="enrol-qr">
      <QrCode value={secret.otpauthUri} label={t('enrol.qrLabel')} />
      <div className="stack">
        <p>{t('enrol.secretIntro')}</p>
        <code className="secret" data-testid="totp-secret">
          {secret.totpSecret.replace(/(.{4})/g, '$1 ').trim()}
        </code>
      </div>
    </div>
  );
}

/** The field for a code of the authenticator app. */
export function TotpCodeField({ code, onChange }: { code: string; onChange: (code: string) => void }) {
  return (
    <Field label={t('signIn.code')} hint={t('signIn.codeHint')}>
      {(id, hint) => (
        <input
          id={id}
          aria-describedby={hint}
          value={code}
          onChange={(e) => onChange(e.target.value)}
          autoComplete="one-time-code"
          inputMode="numeric"
          required
        />
      )}
    </Field>
  );
}
