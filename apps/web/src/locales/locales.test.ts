// Every t() key is checked by the type checker (apps/web/src/i18next.d.ts types t() with the
// French locale); these tests check what types cannot: the two languages agree, plurals are whole.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const full = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(full, value);
    else for (const [k, v] of flatten(value, full)) out.set(k, v);
  }
  return out;
}

function loadLanguage(language: 'fr' | 'en'): Tree {
  const dir = path.join(import.meta.dirname, language);
  const tree: Tree = {};
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.json'))) {
    const messages = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as Tree;
    for (const key of Object.keys(messages)) {
      if (key in tree) throw new Error(`${language}/${file} redefines top-level key ${key}`);
    }
    Object.assign(tree, messages);
  }
  return tree;
}

const fr = loadLanguage('fr') as Record<string, Record<string, unknown>>;
const enTree = loadLanguage('en');
const frKeys = flatten(fr as Tree);
const enKeys = flatten(enTree);

// i18next plurals: `key_one`, `key_other`… with the categories each language's rules use
// (French also has `many`, for 1 000 000 and up). Such a key is used in code as plain `key`.
const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;

/** Every key without its plural suffix: what both languages must share. */
function baseKeys(keys: Map<string, string>): Set<string> {
  return new Set([...keys.keys()].map((key) => key.replace(PLURAL_SUFFIX, '')));
}

/** Plural base key → the categories the file gives it. */
function pluralForms(keys: Map<string, string>): Map<string, string[]> {
  const forms = new Map<string, string[]>();
  for (const key of keys.keys()) {
    const match = PLURAL_SUFFIX.exec(key);
    if (!match?.[1]) continue;
    const base = key.slice(0, match.index);
    forms.set(base, [...(forms.get(base) ?? []), match[1]]);
  }
  return forms;
}

describe('translations', () => {
  it('French (the source of truth) and English have exactly the same keys, none empty', () => {
    const frBase = baseKeys(frKeys);
    const enBase = baseKeys(enKeys);
    expect([...enBase].filter((key) => !frBase.has(key))).toEqual([]);
    expect([...frBase].filter((key) => !enBase.has(key))).toEqual([]);
    for (const [key, value] of [...frKeys, ...enKeys]) expect(value.trim(), key).not.toBe('');
  });

  it('gives every plural exactly the forms its language needs', () => {
    for (const [language, keys] of [
      ['fr', frKeys],
      ['en', enKeys],
    ] as const) {
      const needed = new Intl.PluralRules(language).resolvedOptions().pluralCategories;
      for (const [base, forms] of pluralForms(keys)) {
        expect([...forms].sort(), `${language}: ${base}`).toEqual([...needed].sort());
        expect(keys.has(base), `${language}: ${base} is both plural and plain`).toBe(false);
      }
    }
    expect(pluralForms(frKeys).size).toBeGreaterThan(0);
  });

  // One word per concept in each language: TikTok's own (its French app says Duo and Collage).
  // Each entry: the term to use, and the variants no text may use instead.
  const glossary = {
    fr: [
      { term: /\bDuos?\b/, not: /\bDuets?\b|\bDuo(?:s)? vidéo/i },
      { term: /\bCollages?\b/, not: /\bStitch/i },
      { term: /\bcompte TikTok\b/i, not: /\baccount\b/i },
    ],
    en: [
      { term: /\bDuets?\b/, not: /\bDuos?\b/ },
      { term: /\bStitch(?:es)?\b/, not: /\bCollages?\b|\bStitchs\b/ },
    ],
  } as const;

  it('uses one term per concept, TikTok’s own, in each language', () => {
    for (const [language, keys] of [
      ['fr', frKeys],
      ['en', enKeys],
    ] as const) {
      const texts = [...keys.values()];
      for (const { term, not } of glossary[language]) {
        expect(
          texts.some((text) => term.test(text)),
          `${language}: ${term}`,
        ).toBe(true);
        const offenders = [...keys].filter(([, text]) => not.test(text)).map(([key]) => key);
        expect(offenders, `${language}: ${not}`).toEqual([]);
      }
    }
  });

  it('keeps the original product texts of spec §2 and §8', () => {
    expect(fr.auth!.login).toBe('Connexion');
    expect(fr.auth!.signup).toBe('Inscription');
    expect(fr.auth!.loading).toBe('Chargement...');
    expect(fr.auth!.errors).toMatchObject({
      fillAllFields: 'Veuillez remplir tous les champs',
      emailInUse: 'Cette adresse email est déjà utilisée',
      invalidEmail: 'Adresse email invalide',
      weakPassword: 'Le mot de passe doit contenir au moins 6 caractères',
      wrongCredentials: 'Email ou mot de passe incorrect',
      generic: 'Une erreur est survenue. Veuillez réessayer.',
    });
    expect(fr.pro!.description).toBe('Cette fonctionnalité est réservée aux utilisateurs Pro');
    expect(fr.accounts!.title).toBe('Automatisation TikTok');
    expect(fr.stories!.title).toBe('Créateur de Stories');
    expect(fr.memes!.title).toBe('Détecteur de Memes YouTube');
  });
});
