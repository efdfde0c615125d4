import type { IntlLocale } from '@cadence/shared/locale';
import { timeZoneCity, timeZoneOffsetName } from '../../lib/time-zone.ts';

/** One IANA zone as the /settings list shows and searches it. */
export interface ZoneChoice {
  /** The IANA name, what is saved ('America/New_York'). */
  id: string;
  /** 'New York', or the name itself for a zone that names no city ('UTC'). */
  city: string;
  /** The rest of the name ('America', 'America · Argentina'); '' when there is none. */
  region: string;
  /** The zone's offset now, as Intl writes it in the interface's locale ('UTC−5', 'GMT-5'). */
  offset: string;
  /** Lower-case, accent-free words a search matches against. */
  words: string;
}

/** Lower case without accents or separators: 'Zürich' and 'zurich', 'New_York' and 'new york'. */
function searchable(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').replace(/[_/]/g, ' ').toLowerCase();
}

/**
 * Every zone this browser knows, `offered` first (the browser's own: where the person is now),
 * then by name; `current` (the saved zone) is kept even when the browser lists it under another
 * name. Offsets are the ones in force at `at`.
 */
export function zoneChoices(
  offered: string,
  current: string | null,
  locale: IntlLocale,
  at: Date = new Date(),
): ZoneChoice[] {
  const names = new Set(Intl.supportedValuesOf('timeZone'));
  names.add('UTC');
  if (current !== null) names.add(current);
  const rest = [...names].filter((name) => name !== offered).sort();
  return [offered, ...rest].map((id) => {
    const city = timeZoneCity(id) ?? id;
    const region = id
      .split('/')
      .slice(0, -1)
      .map((part) => part.replace(/_/g, ' '))
      .join(' · ');
    const offset = timeZoneOffsetName(id, locale, at, 'shortOffset');
    return { id, city, region, offset, words: searchable(`${id} ${city} ${offset}`) };
  });
}

/** The choices whose name or offset holds every word of `query` ('new york', 'paris', 'gmt+9'). */
export function matchZones(choices: readonly ZoneChoice[], query: string): ZoneChoice[] {
  const words = searchable(query).split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...choices];
  return choices.filter((choice) => words.every((word) => choice.words.includes(word)));
}
