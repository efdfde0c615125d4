// @vitest-environment jsdom
import type { RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import { resources } from '../lib/i18n.ts';
import { documentTitle } from '../lib/document-title.ts';
import { routes } from './router.tsx';

function pathRoutes(list: readonly RouteObject[]): RouteObject[] {
  return list.flatMap((route) => [
    ...(route.path === undefined ? [] : [route]),
    ...pathRoutes(route.children ?? []),
  ]);
}

function translator(language: 'fr' | 'en') {
  return (key: string): string => {
    const value = key
      .split('.')
      .reduce<unknown>(
        (node, part) => (node as Record<string, unknown> | undefined)?.[part],
        resources[language].translation,
      );
    if (typeof value !== 'string') throw new Error(`no text for ${key}`);
    return value;
  };
}

describe('browser tab titles', () => {
  it('are declared by every route with a path, in both languages', () => {
    const withPath = pathRoutes(routes);
    expect(withPath.length).toBeGreaterThanOrEqual(8);
    for (const route of withPath) {
      for (const language of ['fr', 'en'] as const) {
        const title = documentTitle([route.handle], translator(language));
        expect(title, `${route.path} (${language})`).toMatch(/^.+ · Cadence$/);
      }
    }
  });

  it("read the page's name first, following the language", () => {
    const scheduler = pathRoutes(routes).find((route) => route.path === '/scheduler');
    expect(documentTitle([undefined, scheduler?.handle], translator('fr'))).toBe(
      'Programmateur de vidéos · Cadence',
    );
    expect(documentTitle([scheduler?.handle], translator('en'))).toBe('Video scheduler · Cadence');
    expect(documentTitle([{ title: 'Privacy Policy' }], translator('fr'))).toBe(
      'Privacy Policy · Cadence',
    );
    expect(documentTitle([], translator('fr'))).toBe('Cadence');
  });
});
