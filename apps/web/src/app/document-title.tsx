import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useMatches } from 'react-router';
import { documentTitle } from '../lib/document-title.ts';

/** The root route's element: keeps document.title in step with the route and the language. */
export function TitledOutlet() {
  const { t } = useTranslation();
  const matches = useMatches();
  const title = documentTitle(
    matches.map((match) => match.handle),
    (key) => t(key),
  );
  useEffect(() => {
    document.title = title;
  }, [title]);
  return <Outlet />;
}
