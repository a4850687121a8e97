import type { Config } from '../config.ts'
import { randomToken } from './crypto.ts'
import type { Db } from './db.ts'

/**
 * APP_SECRET keys sessions' CSRF tokens, checkout tokens and the encryption of webhook secrets.
 * Without it (development), one is generated once and kept in the database so restarts and
 * several processes agree; production must set it (the database then holds no key).
 */
export async function resolveAppSecret(db: Db, config: Config): Promise<string> {
  if (config.appSecret) return config.appSecret
  if (config.env === 'production') throw new Error('APP_SECRET is required in production')
  await db
    .insertInto('settings')
    .values({ key: 'app_secret', value: randomToken(48) })
    .onConflict((oc) => oc.doNothing())
    .execute()
  const row = await db
    .selectFrom('settings')
    .select('value')
    .where('key', '=', 'app_secret')
    .executeTakeFirstOrThrow()
  return row.value
}
