// The person's schema as lib/me.ts loads it on demand: zod configured first (zod-config.ts), as
// the answer to /api/me can come before the app (router.tsx) has loaded.
import './zod-config.ts';

export { meSchema } from '@cadence/shared/schemas/person';
