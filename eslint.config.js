// @ts-check
import { readdirSync } from 'node:fs';
import path from 'node:path';
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const root = import.meta.dirname;
const subdirs = (/** @type {string} */ dir) =>
  readdirSync(path.join(root, dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);

const webSrc = 'apps/web/src';
const serverModules = 'apps/server/src/modules';
// What a server module offers the others: its service, its repository and row types, its queue
// (jobs.ts: names and enqueue functions), the accounts token service, and test kits. Routes,
// pipelines (publisher, engine/, render/), pure decision modules and views stay inside.
const modulePublicFiles = [
  'service',
  'repository',
  'db-types',
  'jobs',
  'token-service',
  'test-kit',
];

/**
 * Boundaries checked on resolved paths, so every spelling of an import (`../../accounts/api/…`,
 * `../../features/accounts/…`) is caught (bulletproof-react's zones).
 */
const boundaryZones = [
  // Web: a feature imports only itself and shared code; the app composes features.
  ...subdirs(`${webSrc}/features`).map((feature) => ({
    target: `${webSrc}/features/${feature}`,
    from: `${webSrc}/features`,
    except: [`./${feature}`],
    message: 'A feature never imports another feature: move shared code to lib/ or components/.',
  })),
  {
    target: `${webSrc}/features`,
    from: `${webSrc}/app`,
    message: 'Features do not import the app shell.',
  },
  {
    target: [`${webSrc}/lib`, `${webSrc}/components`],
    from: [`${webSrc}/features`, `${webSrc}/app`],
    message: 'Shared code (lib/, components/) never depends on features or the app.',
  },
  // Server: a module reaches another module only through its public files.
  ...subdirs(serverModules).map((module) => ({
    target: `${serverModules}/${module}`,
    from: path.join(root, serverModules, '*/**'),
    except: [
      path.join(root, serverModules, module, '**'),
      path.join(root, serverModules, `*/{${modulePublicFiles.join(',')}}.ts`),
    ],
    message: `Another module's internals: import its ${modulePublicFiles.join('/')} file, or move the shared code to lib/.`,
  })),
];

/** A date with its month in words written by a bare Intl formatter (see its block below). */
const dateInWordsRestrictions = [
  "Property[key.name='month'][value.value!=/^(numeric|2-digit)$/]",
  "Property[key.name='dateStyle'][value.value!='short']",
].map((option) => ({
  selector: `NewExpression[callee.object.name='Intl'][callee.property.name='DateTimeFormat']:has(${option})`,
  message:
    "A date with its month in words: use dateFormatter (@cadence/shared/date-format), which writes French's '1er'.",
}));
// A 24-hour clock is `hourCycle: 'h23'`: `hour12: false` is the h24 cycle in some locales
// (midnight as '24:00' in en-US), and it silently overrides hourCycle.
dateInWordsRestrictions.push({
  selector: "Property[key.name='hour12']",
  message: "Write the clock as hourCycle: 'h23' (00:00–23:59); hour12: false can mean '24:00'.",
});

/** The language read past useLanguage: `i18n.language`, `useTranslation().i18n.language`… */
const languageRestrictions = [
  "MemberExpression[property.name='language'][object.name='i18n']",
  "MemberExpression[property.name='language'][object.property.name='i18n']",
  "VariableDeclarator[init.name='i18n'] > ObjectPattern > Property[key.name='language']",
].map((selector) => ({
  selector,
  message:
    "Read the language with useLanguage() (lib/i18n.ts): { language } for texts, numbers and plurals, { locale } ('fr-FR' | 'en-GB') for dates and times (dateFormatter, Intl.DateTimeFormat).",
}));

/**
 * A time shown, entered or counted on the browser's clocks instead of the person's zone (their
 * /settings choice, read with useTimeZone): the browser's zone read directly, or a formatter or a
 * Date method that falls back on it. Each such place kept the old zone after a change in /settings.
 */
const zoneMessage =
  "Times follow the person's zone: read it with useTimeZone() (lib/use-time-zone.ts) and pass it on.";
const browserZoneReads = [
  "CallExpression[callee.property.name='resolvedOptions']",
  "CallExpression[callee.name='browserTimeZone']",
].map((selector) => ({ selector, message: zoneMessage }));
const browserClockRestrictions = [
  "NewExpression[callee.object.name='Intl'][callee.property.name='DateTimeFormat']:not(:has(Property[key.name='timeZone']))",
  "CallExpression[callee.name='dateFormatter']:not(:has(Property[key.name='timeZone']))",
  'CallExpression[callee.property.name=/^(get|set)(FullYear|Month|Date|Day|Hours|Minutes|TimezoneOffset)$/]',
  'CallExpression[callee.property.name=/^toLocale(Date|Time)String$/]',
  // new Date(2030, 0, 5): a date made of the browser's local parts.
  "NewExpression[callee.name='Date'][arguments.length>1]",
].map((selector) => ({ selector, message: zoneMessage }));

/**
 * Playwright's isVisible() answers at once, without waiting: asserted true right after a navigation
 * or a click it races the render (foundation.e2e's /auth tab failed CI so). Wait instead.
 */
const snapshotVisibilityRestrictions = [
  {
    selector: "CallExpression[callee.property.name='isVisible']",
    message:
      "isVisible() does not wait: use locator.waitFor() (or waitFor({ state: 'hidden' })) for what must be shown, expect.poll for a state that changes.",
  },
];

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/dist.building-*/**',
      '**/dist.old-*/**',
      '**/node_modules/**',
      'data/**',
      'coverage/**',
      'screenshots/**',
      '.tmp/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: ['tsconfig.json', 'apps/web/tsconfig.json'],
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node },
    },
    rules: {
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/require-await': 'off',
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': ['error', { basePath: root, zones: boundaryZones }],
      '@typescript-eslint/no-misused-promises': [
        'error',
        { checksVoidReturn: { attributes: false } },
      ],
    },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    ...jsxA11y.flatConfigs.recommended,
    languageOptions: {
      ...jsxA11y.flatConfigs.recommended.languageOptions,
      globals: { ...globals.browser },
    },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    // Server layers under the modules (lib, db, storage, TikTok client, media tools, auth, the queue
    // plumbing) never reach up into a module; only the composition roots (app, context, worker,
    // jobs/worker) wire modules together. Integration tests of a layer may use modules.
    files: ['apps/server/src/{lib,db,storage,tiktok,media,mail,auth,jobs}/**/*.ts'],
    ignores: ['**/*.test.ts', 'apps/server/src/jobs/worker.ts'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          basePath: root,
          zones: [
            ...boundaryZones,
            {
              target: 'apps/server/src',
              from: serverModules,
              message: 'A layer below the modules never imports a module; pass what it needs in.',
            },
          ],
        },
      ],
    },
  },
  {
    // Dates in words go through one helper, which writes French's '1er' on the first of a month
    // ('dimanche 1er novembre'); a bare Intl formatter would write '1 novembre' again.
    files: ['apps/**/*.{ts,tsx}', 'packages/**/*.ts', 'e2e/**/*.ts'],
    ignores: ['packages/shared/src/date-format*.ts'],
    rules: { 'no-restricted-syntax': ['error', ...dateInWordsRestrictions] },
  },
  {
    // The web app reads its language in one place, useLanguage (lib/i18n.ts), which also gives
    // the Intl locale of its dates: the bare 'en' of i18n.language writes US dates and a 12-hour
    // clock. Flat config replaces a rule's options, so the date rule is repeated here.
    files: [`${webSrc}/**/*.{ts,tsx}`],
    ignores: [`${webSrc}/lib/i18n.ts`],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...dateInWordsRestrictions,
        ...languageRestrictions,
        ...browserZoneReads,
        ...browserClockRestrictions,
      ],
    },
  },
  {
    // The places that read the browser's zone: sign-up, the fallback of a person without one yet
    // (and the guard that saves it), and the /settings choice that offers it first.
    files: [
      `${webSrc}/lib/{time-zone,use-time-zone}.ts`,
      `${webSrc}/app/guards.tsx`,
      `${webSrc}/features/auth/api/sign-in.ts`,
      `${webSrc}/features/settings/components/time-zone-section.tsx`,
    ],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...dateInWordsRestrictions,
        ...languageRestrictions,
        ...browserClockRestrictions,
      ],
    },
  },
  {
    // Tests build dates from parts and pass zones of their own.
    files: [`${webSrc}/**/*.test.{ts,tsx}`],
    rules: {
      'no-restricted-syntax': ['error', ...dateInWordsRestrictions, ...languageRestrictions],
    },
  },
  {
    // E2E tests wait for what they expect to see. Flat config replaces a rule's options, so the
    // date rule is repeated here.
    files: ['e2e/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...dateInWordsRestrictions,
        ...snapshotVisibilityRestrictions,
      ],
    },
  },
  {
    // A file a newcomer can read whole, a function that fits on a screen: code lines only (a
    // comment that explains is never what makes a unit too long), no exemption list. Tests and
    // their kits are read one case at a time (docs/decisions/055-line-limits.md).
    files: ['apps/**/*.{ts,tsx}', 'packages/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}', '**/test-support/**', '**/*test-kit.ts'],
    rules: {
      'max-lines': ['error', { max: 500, skipBlankLines: true, skipComments: true }],
      'max-lines-per-function': ['error', { max: 100, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    files: ['**/*.test.ts', '**/*.test.tsx', 'e2e/**', 'bench/**', 'scripts/**'],
    // Tests read JSON bodies (`any` from inject().json()) and assert on them: the assertions are the check.
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/unbound-method': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  { files: ['**/*.js', '**/*.mjs'], ...tseslint.configs.disableTypeChecked },
);
