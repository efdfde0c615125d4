import { parseArgs } from 'node:util';
import { z } from 'zod';
import { loadConfigOrExit, type Config } from './config.ts';
import { openDatabase } from './db/client.ts';
import { DataDirLockedError } from './db/data-dir-lock.ts';
import { migrate } from './db/migrate.ts';
import { callAdminSocket } from './modules/admin/admin-socket.ts';
import { createUserRepository } from './modules/users/repository.ts';

const usage = `Usage:
  npm run admin -- pro grant <email>
  npm run admin -- pro revoke <email>`;

/**
 * With PostgreSQL the CLI writes to the database directly. A PGlite directory belongs to one
 * process (decision record 012): the CLI asks the server that owns DATA_DIR through its admin socket
 * there, and opens the database itself only when none answers, under the same lock, which refuses
 * while any live process holds it. PORT and HOST play no part: the operator's shell need not match
 * the server's.
 */
async function setPro(email: string, isPro: boolean): Promise<string> {
  const config = loadConfigOrExit();
  if (config.databaseUrl) return setProInDatabase(config, email, isPro);
  const answer = await callAdminSocket(config.dataDir, {
    path: '/api/admin/pro',
    adminToken: config.adminToken,
    body: { email, isPro },
  });
  if (answer.kind === 'answered') {
    if (answer.status === 200) return 'via the running server';
    throw new Error(answer.body.message ?? `The running server answered ${answer.status}.`);
  }
  try {
    return await setProInDatabase(config, email, isPro);
  } catch (error) {
    if (!(error instanceof DataDirLockedError) || error.owner === null) throw error;
    const { owner } = error;
    throw new Error(
      [
        `Nothing was changed: the database in ${config.dataDir} is open in process ${owner.pid}` +
          ` (${owner.command}, host ${owner.hostname}, since ${owner.startedAt}),` +
          ` which does not answer on its admin socket (${answer.reason}).`,
        'If it is a Cadence server still starting, try again in a moment; otherwise stop that process and run this command again.',
        `If no such process is running any more, delete ${error.lockFile}.`,
      ].join('\n'),
    );
  }
}

async function setProInDatabase(config: Config, email: string, isPro: boolean): Promise<string> {
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    pgliteDataDir: `${config.dataDir}/pgdata`,
  });
  try {
    await migrate(database.db);
    const found = await createUserRepository(database.db).setProByEmail(email, isPro);
    if (!found) throw new Error(`No user with email ${email}`);
    return 'in the database';
  } finally {
    await database.close();
  }
}

async function main(): Promise<void> {
  const { positionals } = parseArgs({ allowPositionals: true, strict: true });
  const [area, action, email] = positionals;
  const parsedEmail = z.email().safeParse(email?.trim().toLowerCase());
  if (area !== 'pro' || (action !== 'grant' && action !== 'revoke') || !parsedEmail.success) {
    console.error(usage);
    process.exit(2);
  }
  const isPro = action === 'grant';
  try {
    const where = await setPro(parsedEmail.data, isPro);
    console.log(`${parsedEmail.data} is ${isPro ? 'now Pro' : 'no longer Pro'} (${where}).`);
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
}

await main();
