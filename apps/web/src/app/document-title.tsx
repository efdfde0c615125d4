import { Outlet, useMatches } from 'react-router';
import { useDocumentTitle } from '../lib/document-title.ts';
import { useRouteFocus } from './route-focus.ts';

/**
 * The root route's element: keeps document.title in step with the route and the language, and
 * moves focus to each new screen (route-focus.ts).
 */
export function TitledOutlet() {
  const matches = useMatches();
  useDocumentTitle(matches.map((match) => match.handle));
  useRouteFocus();
  return <Outlet />;
}
