import { useId, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { ConsoleClient } from '@rewards/contract/console';
import type { BrandingSettings, LogoUpload } from '@rewards/contract/console-clients';
import { getBranding } from '../../api/client-settings.ts';
import { t } from '../../i18n/t.ts';
import { Field } from '../../ui/Form.tsx';
import { ReasonDialog } from '../../ui/ReasonDialog.tsx';
import { BrandPreview } from './BrandPreview.tsx';
import { QueryView } from '../../ui/QueryView.tsx';
import { queryKeys } from '../../api/query-keys.ts';
import { useSaveBranding } from './mutations.ts';

const MAX_LOGO_BYTES = 256 * 1024;
const COLOUR = /^#[0-9a-fA-F]{6}$/;
const dataUrl = (logo: LogoUpload) => `data:${logo.type};base64,${logo.base64}`;

/**
 * A client's name, logo and brand colour (issue 20 §3, decision 065), with the portal's header and
 * home previewed at 375 and 1280 px as they are typed, before anything is saved. Program managers
 * and owners save with a reason; the server checks them as `rewards clients` does. Others read.
 */
export function BrandingSection({ client, canChange }: { client: ConsoleClient; canChange: boolean }) {
  const branding = useQuery({ queryKey: queryKeys.settings.branding(client.id), queryFn: () => getBranding(client.id) });
  const headingId = useId();
  return (
    <section className="section" aria-labelledby={headingId}>
      <h3 id={headingId}>{t('clientSettings.branding.title')}</h3>
      <QueryView query={branding}>
        {(data) =>
          canChange ? (
            <BrandingForm client={client} saved={data} />
          ) : (
            <>
              <dl className="facts">
                <div>
                  <dt>{t('clientSettings.branding.name')}</dt>
                  <dd>{data.name}</dd>
                </div>
                <div>
                  <dt>{t('clientSettings.branding.colour')}</dt>
                  <dd>
                    <span className="colour-chip" style={{ background: data.brandColor }} aria-hidden="true" /> {data.brandColor}
                  </dd>
                </div>
              </dl>
              <BrandPreview clientId={client.id} branding={{ name: data.name, brandColor: data.brandColor, logoSrc: dataUrl(data.logo) }} />
            </>
          )
        }
      </QueryView>
    </section>
  );
}

function BrandingForm({ client, saved }: { client: ConsoleClient; saved: BrandingSettings }) {
  const save = useSaveBranding(client.id);
  const [name, setName] = useState(saved.name);
  const [colour, setColour] = useState(saved.brandColor);
  const [logo, setLogo] = useState<LogoUpload | undefined>(undefined);
  const [logoError, setLogoError] = useState('');
  const [confirming, setConfirming] = useState(false);
  const [message, setMessage] = useState('');
  const colourOk = COLOUR.test(colour);
  const nameOk = name.trim().length > 0 && name.trim().length <= 100;
  const dirty = name !== saved.name || colour.toLowerCase() !== saved.brandColor || logo !== undefined;

  const chooseLogo = (file: File | undefined) => {
    setLogoError('');
    setLogo(undefined);
    if (!file) return;
    const type = /\.png$/i.test(file.name) ? 'image/png' : /\.svg$/i.test(file.name) ? 'image/svg+xml' : undefined;
    if (!type) return setLogoError(t('clientSettings.branding.logoType'));
    if (file.size === 0 || file.size > MAX_LOGO_BYTES) return setLogoError(t('clientSettings.branding.logoSize'));
    const reader = new FileReader();
    reader.onload = () => {
      const text = String(reader.result);
      setLogo({ type, base64: text.slice(text.indexOf(',') + 1) });
    };
    reader.onerror = () => setLogoError(t('clientSettings.branding.logoUnreadable'));
    reader.readAsDataURL(file);
  };

  return (
    <>
      <form
        className="stack branding-form"
        onSubmit={(event) => {
          event.preventDefault();
          setConfirming(true);
        }}
      >
        <div className="role-grid">
          <Field label={t('clientSettings.branding.name')}>
            {(id) => <input id={id} value={name} maxLength={100} onChange={(e) => setName(e.target.value)} required />}
          </Field>
          <Field label={t('clientSettings.branding.colour')} hint={t('clientSettings.branding.colourHint')}>
            {(id, hint) => (
              <div className="colour-field">
                <input
                  type="color"
                  className="colour-field__picker"
                  aria-label={t('clientSettings.branding.colourPicker')}
                  value={colourOk ? colour.toLowerCase() : saved.brandColor}
                  onChange={(e) => setColour(e.target.value)}
                />
                <input
                  id={id}
                  aria-describedby={hint}
                  aria-invalid={!colourOk}
                  value={colour}
                  onChange={(e) => setColour(e.target.value.trim())}
                  spellCheck={false}
                  autoComplete="off"
                  required
                />
              </div>
            )}
          </Field>
          <Field label={t('clientSettings.branding.logo')} hint={t('clientSettings.branding.logoHint')}>
            {(id, hint) => (
              <input
                id={id}
                aria-describedby={hint}
                type="file"
                accept=".svg,.png,image/svg+xml,image/png"
                onChange={(e) => chooseLogo(e.target.files?.[0])}
              />
            )}
          </Field>
        </div>
        {logoError ? (
          <p className="error" role="alert">
            {logoError}
          </p>
        ) : null}
        {!colourOk ? <p className="error">{t('clientSettings.branding.colourInvalid')}</p> : null}
        <h4>{t('clientSettings.preview.title')}</h4>
        <p className="muted">{t('clientSettings.preview.hint')}</p>
        <BrandPreview
          clientId={client.id}
          branding={{
            name: name.trim() || saved.name,
            brandColor: colourOk ? colour : saved.brandColor,
            logoSrc: dataUrl(logo ?? saved.logo),
          }}
        />
        <div className="settings-row">
          <button type="submit" className="button button--primary" disabled={!dirty || !colourOk || !nameOk}>
            {t('clientSettings.branding.save')}
          </button>
          <button
            type="button"
            className="button"
            disabled={!dirty}
            onClick={() => {
              setName(saved.name);
              setColour(saved.brandColor);
              setLogo(undefined);
            }}
          >
            {t('clientSettings.branding.discard')}
          </button>
          <span role="status">{message}</span>
        </div>
      </form>
      {confirming ? (
        <ReasonDialog
          title={t('clientSettings.branding.confirmTitle', { client: client.name })}
          intro={<p>{t('clientSettings.branding.confirmIntro')}</p>}
          submitLabel={t('settings.save')}
          onClose={() => setConfirming(false)}
          mutation={save}
          variables={(reason) => ({ name: name.trim(), brandColor: colour, ...(logo ? { logo } : {}), reason })}
          onDone={(done) => {
            setMessage(done.auditId ? t('clientSettings.branding.saved') : t('clientSettings.unchanged'));
            setLogo(undefined);
            setName(done.name);
            setColour(done.brandColor);
          }}
        />
      ) : null}
    </>
  );
}
