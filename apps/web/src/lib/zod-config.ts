import { z } from 'zod';

// The page's Content-Security-Policy allows no eval (script-src 'self'). zod 4 probes for it with
// `new Function` before its first object parse, to compile faster parsers; the refused probe is a
// CSP violation in DevTools (and costs Lighthouse's best-practices). Without eval, zod parses as it
// would after the refusal. zod reads the setting when a schema is made, so this module comes first:
// in the app (router.tsx) and in the person's schema (person-schema.ts, loaded by lib/me.ts).
z.config({ jitless: true });
