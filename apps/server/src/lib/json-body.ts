import type { FastifyInstance } from 'fastify';
import { AppError } from './app-error.ts';

/** No request Cadence takes nests deeper than a few levels; 32 leaves room and stops abuse. */
export const maxJsonDepth = 32;

/**
 * True when `text`, read as JSON, opens more than `limit` arrays/objects inside one another.
 * One pass over the characters, before JSON.parse: a 6,000-level body must be refused before any
 * recursive code (parsing, validation, re-serialising for better-auth) can overflow the stack.
 */
export function jsonNestingExceeds(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const char = text.charCodeAt(index);
    if (inString) {
      if (char === 0x5c)
        index++; // backslash: the next character is escaped
      else if (char === 0x22) inString = false;
    } else if (char === 0x22) {
      inString = true;
    } else if (char === 0x7b || char === 0x5b) {
      if (++depth > limit) return true;
    } else if (char === 0x7d || char === 0x5d) {
      depth--;
    }
  }
  return false;
}

/**
 * Replaces Fastify's JSON body parser, for every route, with the same parser behind a nesting
 * limit (the size limit is the app's `bodyLimit`). Prototype-poisoning keys stay refused.
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (jsonNestingExceeds(text, maxJsonDepth)) {
      done(
        new AppError('validation_failed', `JSON nested deeper than ${maxJsonDepth} levels`, {
          _: 'errors.tooDeep',
        }),
      );
      return;
    }
    void parseJson(request, text, done);
  });
}
