// The API keys in words: each key's permissions, last use and revoke; the form that creates one
// (permissions grouped read / change, "all read" in one click) and shows the key once.
import type { VNode } from 'preact'
import type { listApiKeys } from '../../../modules/accounts/service.ts'
import { ActionButton, ApiForm, type Data, Field, ListOr, when } from '../ui.tsx'
import { READ_SCOPES, scopeLabel, WRITE_SCOPES } from './scopes.ts'

export function KeyList(props: { keys: Data<typeof listApiKeys>; url: string }): VNode {
  const items = props.keys.map((k) => (
    <li key={k.id}>
      <p>
        <strong>{k.name}</strong> · <code>{`${k.prefix}…`}</code>
      </p>
      <ul class="scopes">
        {k.scopes.map((scope) => (
          <li key={scope}>
            {scopeLabel(scope)} <code class="muted">{scope}</code>
          </li>
        ))}
      </ul>
      <p class="muted">
        {`Criada em ${when(k.created_at)} · ${k.last_used_at ? `usada em ${when(k.last_used_at, true)}` : 'nunca usada'}`}
      </p>
      <ActionButton
        url={`${props.url}/${k.id}`}
        method="DELETE"
        confirm={`Revogar a chave ${k.name}? Integrações que a usam param de funcionar na hora.`}
        done="Chave revogada."
        danger
      >
        {`Revogar ${k.name}`}
      </ActionButton>
    </li>
  ))
  return (
    <ListOr
      items={items}
      empty="Nenhuma chave ainda. Crie uma abaixo para ligar a Vitrine ao seu sistema (ERP, planilha, automação)."
    />
  )
}

function ScopeGroup(props: { id: string; title: string; scopes: [string, string][] }): VNode {
  // A div, not a nested fieldset: forms.ts names a checkbox group's error by its closest legend,
  // and "Permissões" (the outer one) is what the API's `scopes` refusal is about.
  return (
    // biome-ignore lint/a11y/useSemanticElements: see above
    <div id={props.id} role="group" aria-labelledby={`${props.id}-titulo`}>
      <p id={`${props.id}-titulo`}>
        <strong>{props.title}</strong>
      </p>
      {props.scopes.map(([scope, label]) => (
        <label key={scope} class="check" for={`escopo-${scope}`}>
          <input id={`escopo-${scope}`} type="checkbox" name="scopes" value={scope} />
          <span>
            {label} <code class="muted">{scope}</code>
          </span>
        </label>
      ))}
    </div>
  )
}

export function NewKeyForm(props: { url: string }): VNode {
  return (
    <>
      <ApiForm
        url={props.url}
        then="reveal"
        reveal="key"
        revealIn="chave-nova"
        done="Chave criada."
      >
        <Field
          id="nome-chave"
          label="Nome da chave"
          name="name"
          required
          maxLength={100}
          hint="Para você reconhecer onde ela é usada, por exemplo “ERP” ou “Planilha de vendas”."
        />
        <fieldset>
          <legend>Permissões</legend>
          <p class="muted">Dê só o que a integração precisa.</p>
          <ScopeGroup id="escopos-leitura" title="Ler" scopes={READ_SCOPES} />
          <p>
            <button type="button" class="sec" data-check-group="escopos-leitura">
              Marcar todas de leitura
            </button>
          </p>
          <ScopeGroup id="escopos-escrita" title="Alterar" scopes={WRITE_SCOPES} />
        </fieldset>
        <button type="submit">Criar chave</button>
      </ApiForm>
      <div id="chave-nova" role="status" hidden>
        <p>Copie agora: a chave não será mostrada de novo.</p>
        <p>
          <code id="chave-nova-valor" class="key" />
        </p>
        <p>
          <button type="button" class="sec" data-copy-from="chave-nova-valor">
            Copiar chave
          </button>{' '}
          <a href="/dashboard/chaves">Ver a chave na lista</a>
        </p>
      </div>
    </>
  )
}
