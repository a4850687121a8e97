// The PIX key: the one registered (masked), its verification status in words with what happens
// next, and the form that PATCHes /api/profile/pix (keyboard and mask follow the type).
import type { VNode } from 'preact'
import type { profileOf } from '../../../modules/payouts/pix-keys.ts'
import { ApiForm, type Data } from '../ui.tsx'
import { PIX_KEY_INPUT, type PixKeyKind } from './pix-key-format.ts'

const PIX_TYPES: [PixKeyKind, string][] = [
  ['cpf', 'CPF'],
  ['cnpj', 'CNPJ'],
  ['email', 'E-mail'],
  ['phone', 'Celular'],
  ['random', 'Chave aleatória'],
]

export const PIX_TYPE_LABEL: Record<string, string> = Object.fromEntries(PIX_TYPES)

function Status({ pix }: { pix: Data<typeof profileOf> }): VNode {
  switch (pix.pix_status) {
    case 'none':
      return (
        <p>
          Nenhuma chave cadastrada. Cadastre a chave Pix da sua conta bancária: os saques vão para
          ela.
        </p>
      )
    case 'pending':
      return (
        <p>
          <span class="badge">aguardando verificação</span> A equipe da Vitrine confere se a chave é
          sua. Até lá, não é possível sacar; depois de verificada, os saques vão para ela.
        </p>
      )
    case 'verified':
      return (
        <p>
          <span class="badge">verificada</span> Os saques vão para esta chave. Trocar a chave exige
          uma nova verificação.
        </p>
      )
    case 'rejected':
      return (
        <p>
          <span class="badge">rejeitada</span>
          {` Motivo: ${pix.pix_rejection_reason ?? 'não informado'}. Cadastre outra chave (ou corrija esta) para que ela seja verificada de novo.`}
        </p>
      )
  }
}

export function PixKey({ pix }: { pix: Data<typeof profileOf> }): VNode {
  const kind: PixKeyKind = pix.pix_key_type ?? 'cpf'
  const input = PIX_KEY_INPUT[kind]
  return (
    <>
      {pix.pix_key ? (
        <p>
          {`${PIX_TYPE_LABEL[kind]}: `}
          <strong>{pix.pix_key}</strong>
        </p>
      ) : null}
      <Status pix={pix} />
      <ApiForm url="/api/profile/pix" method="PATCH" done="Chave Pix salva.">
        <p>
          <label for="tipo">Tipo de chave</label>
          <select id="tipo" name="pix_key_type" data-pix-key-field="chave">
            {PIX_TYPES.map(([value, label]) => (
              <option key={value} value={value} selected={kind === value}>
                {label}
              </option>
            ))}
          </select>
        </p>
        <p>
          <label for="chave">Chave Pix</label>
          <input
            id="chave"
            name="pix_key"
            maxLength={140}
            required
            autocomplete="off"
            inputMode={input.inputMode}
            placeholder={input.placeholder}
            autoCapitalize={input.autoCapitalize ?? 'off'}
            aria-describedby="chave-dica"
            data-pix-key-type-from="tipo"
          />
          <span id="chave-dica" class="muted">
            {input.hint}
          </span>
        </p>
        <button type="submit">Salvar chave</button>
      </ApiForm>
    </>
  )
}
