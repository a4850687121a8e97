// /dashboard/webhooks/:id: one endpoint — test event, turn off / on, new secret (shown once),
// change URL and events, delete — and its delivery log with every attempt and a retry per
// failed delivery. Another account's id, or one that is not an id, reads as not found.
import { z } from 'zod'
import { NotFound } from '../../../kit/errors.ts'
import { getEndpoint, listDeliveries } from '../../../modules/webhooks/service.ts'
import type { RouteModule } from '../../../routes.ts'
import { dashboardPage } from '../page.tsx'
import { ActionButton, ApiForm, Field, Section, when } from '../ui.tsx'
import { eventLabel } from './events.ts'
import { DeliveryLog, EventChoices, endpointState, SecretBox } from './parts.tsx'

const PER_PAGE = 20
const Params = z.object({ id: z.uuid() })
const Query = z.object({ pagina: z.coerce.number().int().min(1).max(10_000).catch(1) })

export const webhookPage: RouteModule = (app, deps) =>
  dashboardPage(
    app,
    deps,
    { path: '/webhooks/:id', section: '/webhooks' },
    async ({ accountId, params, query }) => {
      const id = Params.safeParse(params).data?.id
      const page = Query.parse({ pagina: query.pagina ?? 1 }).pagina
      const found = id
        ? await Promise.all([
            getEndpoint(deps.db, accountId, id),
            listDeliveries(deps.db, accountId, id, { page, limit: PER_PAGE }),
          ]).catch((error) => {
            if (error instanceof NotFound) return undefined
            throw error
          })
        : undefined
      if (!found) {
        return {
          status: 404,
          title: 'Webhook não encontrado',
          body: (
            <div class="card">
              <p>
                Este endpoint não existe ou foi excluído.{' '}
                <a href="/dashboard/webhooks">Voltar aos webhooks</a>
              </p>
            </div>
          ),
        }
      }
      const [endpoint, deliveries] = found
      const url = `/api/v1/webhooks/${endpoint.id}`
      return {
        title: 'Endpoint de webhook',
        body: (
          <>
            <p>
              <a href="/dashboard/webhooks">← Todos os webhooks</a>
            </p>
            <Section id="t-endpoint" title="Endpoint">
              <p class="key">
                <strong>{endpoint.url}</strong>
              </p>
              <p>
                <span class="badge">{endpointState(endpoint)}</span>
                <span class="muted">{` · criado em ${when(endpoint.created_at)}`}</span>
              </p>
              <p class="muted">{`Eventos: ${endpoint.events.map(eventLabel).join(', ')}`}</p>
              <div class="actions">
                <ActionButton
                  url={`${url}/test`}
                  done="Evento de teste enviado: ele aparece no registro de entregas."
                >
                  Enviar evento de teste
                </ActionButton>
                <ApiForm
                  url={url}
                  method="PATCH"
                  confirm={
                    endpoint.is_active
                      ? 'Desativar este endpoint? Os eventos de agora em diante não serão enviados a ele, nem guardados para depois.'
                      : undefined
                  }
                  done={endpoint.is_active ? 'Endpoint desativado.' : 'Endpoint ativado.'}
                >
                  <input
                    type="checkbox"
                    name="is_active"
                    data-type="boolean"
                    checked={!endpoint.is_active}
                    hidden
                  />
                  <button type="submit" class="sec">
                    {endpoint.is_active ? 'Desativar' : 'Ativar'}
                  </button>
                </ApiForm>
                <ApiForm
                  url={`${url}/rotate-secret`}
                  then="reveal"
                  reveal="secret"
                  revealIn="segredo-rotacao"
                  confirm="Gerar um novo segredo? O atual continua assinando junto com o novo por 24 horas; troque-o no seu sistema nesse prazo."
                  done="Novo segredo gerado."
                >
                  <button type="submit" class="sec">
                    Gerar novo segredo
                  </button>
                </ApiForm>
                <ApiForm
                  url={url}
                  method="DELETE"
                  then="go"
                  go="/dashboard/webhooks"
                  confirm="Excluir este endpoint? Ele deixa de receber eventos e o registro de entregas some do painel."
                >
                  <button type="submit" class="danger">
                    Excluir
                  </button>
                </ApiForm>
              </div>
              <SecretBox id="segredo-rotacao" />
            </Section>
            <Section id="t-entregas" title="Registro de entregas">
              <DeliveryLog page={deliveries} />
              <p class="row">
                {page > 1 ? (
                  <a href={`/dashboard/webhooks/${endpoint.id}?pagina=${page - 1}`}>
                    Entregas mais recentes
                  </a>
                ) : null}
                {deliveries.has_more ? (
                  <a href={`/dashboard/webhooks/${endpoint.id}?pagina=${page + 1}`}>
                    Entregas mais antigas
                  </a>
                ) : null}
              </p>
            </Section>
            <Section id="t-alterar" title="Alterar endpoint">
              <ApiForm url={url} method="PATCH" done="Endpoint alterado.">
                <Field
                  id="url-endpoint"
                  label="URL do endpoint"
                  name="url"
                  type="url"
                  inputMode="url"
                  required
                  maxLength={2000}
                  value={endpoint.url}
                />
                <EventChoices idPrefix="alterar" checked={endpoint.events} />
                <button type="submit">Salvar alterações</button>
              </ApiForm>
            </Section>
          </>
        ),
      }
    },
  )
