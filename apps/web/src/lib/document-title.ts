import type { TranslationKey } from '@cadence/shared/translation-key';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * What a route declares in its `handle` to name the browser tab: a translation key (follows the
 * language), or a fixed text for pages that exist in one language only (the legal pages).
 */
export type RouteTitle = { titleKey: TranslationKey } | { title: string };

function isRouteTitle(handle: unknown): handle is RouteTitle {
  return (
    typeof handle === 'object' && handle !== null && ('titleKey' in handle || 'title' in handle)
  );
}

/** 'Programmateur de vidéos · Cadence': the deepest matched route's title, then the app's name. */
export function documentTitle(
  handles: readonly unknown[],
  translate: (key: TranslationKey) => string,
): string {
  const appName = translate('app.name');
  const declared = handles.filter(isRouteTitle).at(-1);
  if (!declared) return appName;
  const title = 'titleKey' in declared ? translate(declared.titleKey) : declared.title;
  return `${title} · ${appName}`;
}

/** Keeps document.title on the deepest of `handles`' titles, following the language. */
export function useDocumentTitle(handles: readonly unknown[]): void {
  const { t } = useTranslation();
  const title = documentTitle(handles, (key) => t(key));
  useEffect(() => {
    document.title = title;
  }, [title]);
}
