import { Outlet, useMatches } from 'react-router';
import { useDocumentTitle } from '../lib/document-title.ts';

/** The root route's element: keeps document.title in step with the route and the language. */
export function TitledOutlet() {
  const matches = useMatches();
  useDocumentTitle(matches.map((match) => match.handle));
  return <Outlet />;
}
