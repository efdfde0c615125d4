// A person's IANA time zone, as the API checks it. Its own module: the person's schema needs it,
// and the schedule schemas beside it would bring the planner to the web's first screen.
import { z } from 'zod';
import { isValidTimeZone } from '../schedule/time-zones.ts';

const invalid = { error: 'errors.invalidTimeZone' } as const;

export const timeZoneSchema = z.string(invalid).max(100, invalid).refine(isValidTimeZone, invalid);
