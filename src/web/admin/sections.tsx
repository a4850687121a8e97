// /admin's other sections: search (accounts, orders) and the withdrawal history, whose lists
// the browser script fills from the admin API (browser/search.ts, browser/withdrawals.ts), and
// the confirmation asked before any money action (browser/confirm.ts).
import type { VNode } from 'preact'

export function SearchSection(): VNode {
  return (
    <section class="card" aria-labelledby="t-busca">
      <h2 id="t-busca">Buscar</h2>
      <form id="busca-contas" class="busca" aria-label="Buscar contas">
        <label for="q-contas">Conta: nome, e-mail ou id</label>
        <div class="linha">
          <input id="q-contas" name="q" type="search" maxLength={254} autocomplete="off" />
          <button type="submit">Buscar contas</button>
        </div>
      </form>
      <ul id="contas" aria-label="Contas encontradas" />
      <form id="busca-pedidos" class="busca" aria-label="Buscar pedidos">
        <label for="q-pedidos">Pedido: id ou e-mail do comprador</label>
        <div class="linha">
          <input id="q-pedidos" name="q" type="search" maxLength={254} autocomplete="off" />
          <button type="submit">Buscar pedidos</button>
        </div>
      </form>
      <ul id="pedidos" aria-label="Pedidos encontrados" />
    </section>
  )
}

const FILTERS = [
  ['open', 'Em aberto (pendentes e aprovados)'],
  ['pending', 'Pendentes'],
  ['approved', 'Aprovados'],
  ['paid', 'Pagos'],
  ['rejected', 'Recusados'],
  ['', 'Todos'],
] as const

export function WithdrawalsSection(): VNode {
  return (
    <section class="card" aria-labelledby="t-saques">
      <h2 id="t-saques">Saques</h2>
      <label for="filtro-saques">Mostrar</label>
      <select id="filtro-saques">
        {FILTERS.map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </select>
      <p id="saques-situacao" class="muted">
        Carregando…
      </p>
      <ul id="saques" aria-labelledby="t-saques" />
      <button id="saques-mais" type="button" class="sec" hidden>
        Mostrar mais
      </button>
    </section>
  )
}

/** The one confirmation dialog; the script writes what is confirmed (amount, holder, key). */
export function ConfirmDialog(): VNode {
  return (
    <dialog id="confirmar" aria-labelledby="confirmar-titulo" aria-describedby="confirmar-texto">
      <h2 id="confirmar-titulo">Confirmar</h2>
      <dl id="confirmar-texto" />
      <div class="actions">
        <button id="confirmar-sim" type="button">
          Confirmar
        </button>
        <button id="confirmar-nao" type="button" class="sec">
          Cancelar
        </button>
      </div>
    </dialog>
  )
}
