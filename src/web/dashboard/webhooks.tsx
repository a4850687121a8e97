// /dashboard/webhooks: the endpoints (state, events, latest delivery; each opens its page) and
// the form that creates one, whose signing secret is shown once.
import { listDeliveries, listEndpoints } from '../../modules/webhooks/service.ts'
import type { RouteModule } from '../../routes.ts'
import { dashboardPage } from './page.tsx'
import { ApiForm, Field, ListOr, Section } from './ui.tsx'
import { eventLabel } from './webhooks/events.ts'
import { deliveryLine, EventChoices, endpointState, SecretBox } from './webhooks/parts.tsx'

export const webhooksPage: RouteModule = (app, deps) =>
  dashboardPage(app, deps, { path: '/webhooks', section: '/webhooks' }, async ({ accountId }) => {
    const endpoints = await listEndpoints(deps.db, accountId, { page: 1, limit: 50 })
    const latest = await Promise.all(
      endpoints.data.map((e) => listDeliveries(deps.db, accountId, e.id, { page: 1, limit: 1 })),
    )
    const items = endpoints.data.map((e, i) => {
      const last = latest[i]?.data[0]
      return (
        <li key={e.id}>
          <p>
            <a href={`/dashboard/webhooks/${e.id}`}>
              <strong>{e.url}</strong>
            </a>{' '}
            <span class="badge">{endpointState(e)}</span>
          </p>
          <p class="muted">{`Eventos: ${e.events.map(eventLabel).join(', ')}`}</p>
          <p class="muted">
            {last ? `Última entrega: ${deliveryLine(last)}` : 'Nenhuma entrega ainda.'}
          </p>
        </li>
      )
    })
    return {
      title: 'Webhooks',
      body: (
        <>
          <Section id="t-endpoints" title="Endpoints">
            <ListOr
              items={items}
              empty="Nenhum endpoint ainda. Cadastre abaixo o endereço do seu sistema para receber pedidos, reembolsos e acessos assim que acontecem."
            />
          </Section>
          <Section id="t-novo-endpoint" title="Novo endpoint">
            <ApiForm
              url="/api/v1/webhooks"
              then="reveal"
              reveal="secret"
              revealIn="segredo-novo"
              done="Endpoint criado."
            >
              <Field
                id="url-endpoint"
                label="URL do endpoint"
                name="url"
                type="url"
                inputMode="url"
                required
                maxLength={2000}
                placeholder="https://seu-sistema.com.br/webhooks"
                hint="Endereço https que recebe um POST com cada evento, assinado com o segredo."
              />
              <EventChoices idPrefix="novo" />
              <button type="submit">Criar endpoint</button>
            </ApiForm>
            <SecretBox id="segredo-novo">
              <p>
                <a href="/dashboard/webhooks">Ver o endpoint na lista</a>
              </p>
            </SecretBox>
          </Section>
        </>
      ),
    }
  })
