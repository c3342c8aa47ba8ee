import { useI18n } from '../../i18n/I18nContext.tsx';
import { useAppState } from '../../state/StoreContext.tsx';
import { paths } from '../../routing/paths.ts';
import { AppLink } from '../../ui/AppLink.tsx';
import './footer.css';

/** Footer links with the visibility rules of spec section 2. */
export function Footer({ inert = false }: { inert?: boolean }) {
  const { t } = useI18n();
  const user = useAppState((s) => s.user);
  const clientName = useAppState((s) => s.client?.clientBranding.clientName ?? '');
  const version = useAppState((s) => s.client?.privacyNoticeVersion ?? 0);
  const noticeVersion = user ? Math.max(user.privacyNotice.version, version) : version;

  const links: { to: string; label: string }[] = [];
  if (user && user.participantRules.length > 0) links.push({ to: paths.rules, label: t('footer.rules') });
  if (user) links.push({ to: paths.contact, label: t('footer.contact') }, { to: paths.faqs, label: t('footer.faqs') });
  links.push({ to: paths.privacyPolicy, label: t('footer.privacyPolicy') });
  if (user && noticeVersion > 0) links.push({ to: paths.privacyNotice, label: t('footer.privacyNotice') });

  return (
    <footer className="footer" inert={inert}>
      <div className="footer__inner">
        <nav aria-label={t('footer.nav')}>
          <ul className="footer__links">
            {links.map((link) => (
              <li key={link.to}>
                <AppLink to={link.to}>{link.label}</AppLink>
              </li>
            ))}
          </ul>
        </nav>
        <p className="footer__copyright">{t('footer.copyright', { year: new Date().getFullYear(), clientName })}</p>
      </div>
    </footer>
  );
}
