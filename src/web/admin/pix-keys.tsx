// The PIX keys waiting for verification, server-rendered: verify, or reject with a reason.
// A decided key leaves the queue (browser/pix-keys.ts removes its row).
import type { VNode } from 'preact'
import type { listPixKeys } from '../../modules/payouts/pix-keys.ts'

type PixKeyRow = Awaited<ReturnType<typeof listPixKeys>>['data'][number]

export const NO_KEYS = 'Nenhuma chave aguardando verificação.'

function PixKeyItem({ k }: { k: PixKeyRow }): VNode {
  const reason = `motivo-${k.user_id}`
  return (
    <li data-who={k.name}>
      <p>
        {k.name} <span class="muted">{k.email}</span>
      </p>
      <p>
        {k.pix_key_type}: <strong class="key">{k.pix_key}</strong>
      </p>
      <div class="actions">
        <button
          type="button"
          data-url={`/api/admin/pix-keys/${k.user_id}/verify`}
          data-done={`Chave Pix de ${k.name} verificada.`}
        >
          Verificar
        </button>
        <span>
          <label for={reason}>Motivo da rejeição</label>
          <input id={reason} name="reason" maxLength={500} />
        </span>
        <button
          type="button"
          class="sec"
          data-url={`/api/admin/pix-keys/${k.user_id}/reject`}
          data-reason={reason}
          data-missing="Escreva o motivo antes de rejeitar."
          data-done={`Chave Pix de ${k.name} rejeitada.`}
        >
          Rejeitar
        </button>
      </div>
      <p class="erro" role="alert" hidden />
    </li>
  )
}

export function PixKeysSection(props: { keys: PixKeyRow[] }): VNode {
  return (
    <section class="card" aria-labelledby="t-chaves">
      <h2 id="t-chaves">Chaves Pix para verificar</h2>
      {props.keys.length ? (
        <ul id="chaves" data-empty={NO_KEYS}>
          {props.keys.map((k) => (
            <PixKeyItem key={k.user_id} k={k} />
          ))}
        </ul>
      ) : (
        <p>{NO_KEYS}</p>
      )}
    </section>
  )
}
