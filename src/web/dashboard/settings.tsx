// /dashboard/configuracoes: the account's settings; today, whether its owner is e-mailed of
// approved sales (on by default, issue 12 item 3; coalesced in a launch, sale-notices/).
import { readSettings } from '../../modules/accounts/settings.ts'
import type { RouteModule } from '../../routes.ts'
import { dashboardPage } from './page.tsx'
import { ApiForm, Section } from './ui.tsx'

export const settingsPage: RouteModule = (app, deps) =>
  dashboardPage(
    app,
    deps,
    { path: '/configuracoes', section: '/configuracoes' },
    async ({ accountId }) => {
      const settings = await readSettings(deps.db, accountId)
      return {
        title: 'Configurações',
        body: (
          <Section id="t-notificacoes" title="Notificações por e-mail">
            <ApiForm
              url={`/api/accounts/${accountId}/settings`}
              method="PATCH"
              done="Configurações salvas."
            >
              <p class="check">
                <input
                  type="checkbox"
                  id="avisar-vendas"
                  name="sale_notifications"
                  data-type="boolean"
                  checked={settings.sale_notifications}
                />
                <label for="avisar-vendas">Receber e-mails das vendas aprovadas</label>
              </p>
              <p class="muted">
                O e-mail vai para o dono da conta, com o produto, o valor, o comprador e um link
                para o pedido. Renovações de assinatura também avisam. Quando as vendas chegam em
                sequência, a primeira avisa na hora e as demais vêm num resumo a cada minuto.
              </p>
              <button type="submit">Salvar</button>
            </ApiForm>
          </Section>
        ),
      }
    },
  )
