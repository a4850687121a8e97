// /dashboard/chaves: the account's API keys (permissions in words, last use, revoke after a
// confirmation) and the form that creates one, shown once.
import { listApiKeys } from '../../modules/accounts/service.ts'
import type { RouteModule } from '../../routes.ts'
import { KeyList, NewKeyForm } from './api-keys/parts.tsx'
import { dashboardPage } from './page.tsx'
import { Section } from './ui.tsx'

export const apiKeysPage: RouteModule = (app, deps) =>
  dashboardPage(app, deps, { path: '/chaves', section: '/chaves' }, async ({ accountId }) => {
    const keys = await listApiKeys(deps.db, accountId)
    const url = `/api/accounts/${accountId}/api-keys`
    return {
      title: 'Chaves de API',
      body: (
        <>
          <Section id="t-chaves" title="Chaves ativas">
            <KeyList keys={keys} url={url} />
          </Section>
          <Section id="t-nova-chave" title="Nova chave">
            <NewKeyForm url={url} />
          </Section>
        </>
      ),
    }
  })
