import { describe, expect, it } from 'vitest';
import { timeZoneCity, timeZoneOffsetName } from './time-zone.ts';

describe('timeZoneCity', () => {
  it('names the city of an IANA zone', () => {
    expect(timeZoneCity('Europe/Paris')).toBe('Paris');
    expect(timeZoneCity('America/New_York')).toBe('New York');
    expect(timeZoneCity('America/Argentina/Buenos_Aires')).toBe('Buenos Aires');
  });

  it('names none for zones that are offsets only', () => {
    expect(timeZoneCity('UTC')).toBeNull();
    expect(timeZoneCity('Etc/GMT-3')).toBeNull();
  });
});

describe('timeZoneOffsetName', () => {
  it('writes the offset as Intl does in the language', () => {
    expect(timeZoneOffsetName('Etc/GMT-3', 'fr-FR')).toBe('UTC+3');
    expect(timeZoneOffsetName('Etc/GMT-3', 'en-GB')).toBe('GMT+3');
  });
});
