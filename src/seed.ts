// Start-up data: the platform admin from ADMIN_EMAIL / ADMIN_PASSWORD, and on a fresh database
// (outside production) a demo creator, two products and a demo admin, so `npm start` shows
// something a person can buy right away.
import type { Deps } from './deps.ts'
import { withTx } from './kit/db.ts'
import { SCOPES } from './modules/accounts/schema.ts'
import { createApiKey, ensureAdmin, signup } from './modules/accounts/service.ts'
import { createProduct } from './modules/catalog/service.ts'

export const DEMO = {
  creator: {
    name: 'Estúdio Luz Demo',
    email: 'criadora@vitrine.local',
    password: 'vitrine-demo-123',
  },
  admin: { email: 'admin@vitrine.local', password: 'vitrine-admin-123' },
  productSlug: 'fotografia-com-celular',
}

export interface SeedResult {
  admin: { email: string; password: string } | null
  demo: null | { creator: typeof DEMO.creator; apiKey: string | null; productSlug: string }
}

export async function seed(deps: Deps): Promise<SeedResult> {
  const admin = deps.config.admin ?? (demoWanted(deps) ? DEMO.admin : null)
  if (admin) await withTx(deps.db, (tx) => ensureAdmin(tx, deps, admin))
  if (!demoWanted(deps)) return { admin, demo: null }
  const apiKey = await withTx(deps.db, async (tx) => {
    const first = await tx
      .insertInto('settings')
      .values({ key: 'demo_seeded', value: deps.clock.now().toISOString() })
      .onConflict((oc) => oc.doNothing())
      .returning('key')
      .executeTakeFirst()
    if (!first) return null
    const { user, account } = await signup(tx, deps, DEMO.creator)
    await createProduct(tx, deps, account.id, {
      name: 'Fotografia com Celular',
      slug: DEMO.productSlug,
      billing: 'one_time',
      description: 'Aprenda a fazer fotos profissionais só com o celular, em 12 aulas curtas.',
      delivery_url: 'https://example.com/aulas/fotografia-com-celular',
      plans: [{ name: 'Acesso vitalício', price: 97 }],
    })
    await createProduct(tx, deps, account.id, {
      name: 'Clube da Foto',
      slug: 'clube-da-foto',
      billing: 'recurring',
      description: 'Um desafio fotográfico por semana e correções ao vivo.',
      plans: [
        { name: 'Mensal', price: 29.9, interval: 'month' },
        { name: 'Anual', price: 299, interval: 'year' },
      ],
    })
    const { key } = await createApiKey(tx, deps, {
      accountId: account.id,
      userId: user.id,
      name: 'Demo',
      scopes: [...SCOPES],
    })
    return key
  })
  return { admin, demo: { creator: DEMO.creator, apiKey, productSlug: DEMO.productSlug } }
}

function demoWanted(deps: Deps): boolean {
  return deps.config.seedDemo && !deps.config.production
}
