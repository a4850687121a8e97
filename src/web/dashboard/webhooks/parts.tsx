// Pieces of the webhook pages: the events as checkboxes in words, an endpoint's state, a secret
// shown once, and the delivery log with each attempt.
import type { VNode } from 'preact'
import type { listDeliveries, listEndpoints } from '../../../modules/webhooks/service.ts'
import { ActionButton, type Data, ListOr, when } from '../ui.tsx'
import { EVENT_LABEL, eventLabel } from './events.ts'

type Endpoint = Data<typeof listEndpoints>['data'][number]
type Delivery = Data<typeof listDeliveries>['data'][number]

/** One checkbox per event, pt-BR first, the API's name beside it (what the receiver gets). */
export function EventChoices(props: { idPrefix: string; checked?: readonly string[] }): VNode {
  return (
    <fieldset>
      <legend>Eventos</legend>
      {Object.entries(EVENT_LABEL).map(([event, label]) => (
        <label key={event} class="check" for={`${props.idPrefix}-${event}`}>
          <input
            id={`${props.idPrefix}-${event}`}
            type="checkbox"
            name="events"
            value={event}
            checked={props.checked?.includes(event)}
          />
          <span>
            {label} <code class="muted">{event}</code>
          </span>
        </label>
      ))}
    </fieldset>
  )
}

const OFF: Record<string, string> = {
  manual: 'desativado por você',
  gone: 'desativado: o endpoint respondeu 410 (não existe mais)',
  failing: 'desativado: falhou por 24 horas seguidas',
}

export const endpointState = (e: Endpoint): string =>
  e.is_active ? 'ativo' : (OFF[e.disabled_reason ?? 'manual'] ?? 'desativado')

/** Where a secret the API returns once appears (ApiForm then="reveal"), with a copy button. */
export function SecretBox(props: { id: string; children?: VNode }): VNode {
  return (
    <div id={props.id} role="status" hidden>
      <p>Copie agora o segredo de assinatura: ele não será mostrado de novo.</p>
      <p>
        <code id={`${props.id}-valor`} class="key" />
      </p>
      <p>
        <button type="button" class="sec" data-copy-from={`${props.id}-valor`}>
          Copiar segredo
        </button>
      </p>
      {props.children}
    </div>
  )
}

const DELIVERY_STATUS: Record<string, string> = {
  pending: 'na fila',
  delivered: 'entregue',
  failed: 'falhou',
}

export const deliveryLine = (d: Delivery) =>
  `${eventLabel(d.event)} · ${DELIVERY_STATUS[d.status]} · ${when(d.created_at, true)}`

function Attempt({ a }: { a: Delivery['attempts'][number] }): VNode {
  const answer = a.status_code ? `HTTP ${a.status_code}` : 'sem resposta'
  return (
    <li>
      {`Tentativa ${a.attempt} · ${answer} · ${a.duration_ms} ms · ${when(a.created_at, true)}`}
      {a.error && a.error !== answer ? <span class="muted">{` · ${a.error}`}</span> : null}
    </li>
  )
}

export function DeliveryLog(props: { page: Data<typeof listDeliveries> }): VNode {
  const items = props.page.data.map((d) => (
    <li key={d.id}>
      <p>
        <strong>{eventLabel(d.event)}</strong> <code class="muted">{d.event}</code>
      </p>
      <p>
        {`${DELIVERY_STATUS[d.status]} · ${when(d.created_at, true)}`}
        {d.status === 'pending' && d.next_attempt_at
          ? ` · próxima tentativa ${when(d.next_attempt_at, true)}`
          : ''}
      </p>
      <ListOr
        items={d.attempts.map((a) => <Attempt key={a.attempt} a={a} />)}
        empty="Nenhuma tentativa ainda."
      />
      {d.status === 'failed' ? (
        <ActionButton
          url={`/api/v1/webhook-deliveries/${d.id}/retry`}
          done="Entrega colocada na fila de novo."
        >
          Reenviar
        </ActionButton>
      ) : null}
    </li>
  ))
  return (
    <ListOr
      items={items}
      empty="Nenhuma entrega ainda. Envie um evento de teste para conferir o endpoint."
    />
  )
}
