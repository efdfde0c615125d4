import { parseArgs } from 'node:util';
import { z } from 'zod';
import { loadConfigOrExit } from './config.ts';
import { openDatabase } from './db/client.ts';
import { migrate } from './db/migrate.ts';
import { createUserRepository } from './modules/users/repository.ts';

const usage = `Usage:
  npm run admin -- pro grant <email>
  npm run admin -- pro revoke <email>`;

/**
 * With PostgreSQL the CLI writes to the database directly. With PGlite only one process may open
 * the data directory, so it first asks a running server (loopback, admin token from DATA_DIR) and
 * opens the database itself only when no server answers.
 */
async function setPro(email: string, isPro: boolean): Promise<string> {
  const config = loadConfigOrExit();
  if (!config.databaseUrl) {
    try {
      const response = await fetch(`http://127.0.0.1:${config.port}/api/admin/pro`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-admin-token': config.adminToken },
        body: JSON.stringify({ email, isPro }),
      });
      const body = z
        .object({ message: z.string().optional() })
        .passthrough()
        .parse(await response.json());
      if (response.ok) return 'via the running server';
      throw new Error(body.message ?? `server answered ${response.status}`);
    } catch (error) {
      const refused = error instanceof TypeError; // fetch failed: no server listening
      if (!refused) throw error;
    }
  }
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
