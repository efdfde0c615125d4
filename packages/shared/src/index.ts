// The shared package's public surface; deep imports (`@cadence/shared/schemas/user`) also work.
export * from './errors.ts';
export * from './schemas/user.ts';
