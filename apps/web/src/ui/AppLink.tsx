import { Link, useLocation, type LinkProps } from 'react-router';
import { backgroundOf, isModalPath, type BackgroundLocation } from '../routing/paths.ts';

/**
 * A link that opens modal routes over the current page: it records the page as the modal's
 * background, and a modal opened from a modal keeps the first one's background.
 */
export function AppLink({ to, state, ...rest }: Omit<LinkProps, 'to'> & { to: string }) {
  const location = useLocation();
  let linkState: unknown = state;
  if (isModalPath(to)) {
    const background: BackgroundLocation | undefined =
      backgroundOf(location.state) ??
      (isModalPath(location.pathname) ? undefined : { pathname: location.pathname, search: location.search, hash: location.hash });
    linkState = { ...(typeof state === 'object' ? state : {}), backgroundLocation: background };
  }
  return <Link to={to} state={linkState} {...rest} />;
}
