// /termos and /privacidade: the plain-language terms and privacy notice the checkout links to
// (pt-BR). Vitrine is the platform that sells on the creator's behalf; the creator (the seller)
// answers for the product. Static pages: rendered once, no script.
import type { VNode } from 'preact'
import type { RouteModule } from '../routes.ts'
import { Layout } from './layout.tsx'
import { type Children, render } from './render.tsx'

const CSS = 'h2{font-size:1.1rem;margin:1.25rem 0 .5rem}li{margin:.25rem 0}'

function LegalPage(props: { title: string; children: Children }): VNode {
  return (
    <Layout title={props.title} css={CSS}>
      <article class="card">
        <h1>{props.title}</h1>
        {props.children}
        <p class="muted">
          Veja também: <a href="/termos">Termos de uso</a> ·{' '}
          <a href="/privacidade">Política de privacidade</a>
        </p>
      </article>
    </Layout>
  )
}

const terms = (
  <LegalPage title="Termos de uso">
    <p>
      A Vitrine é uma plataforma que permite a produtores venderem produtos digitais (cursos,
      assinaturas, conteúdos) em páginas de pagamento próprias. Ao comprar por uma página da
      Vitrine, você compra do produtor indicado na página ("Vendido por").
    </p>
    <h2>Quem é responsável pelo quê</h2>
    <ul>
      <li>
        <strong>O produtor</strong> é o vendedor: responde pelo produto, pelo conteúdo, pela
        entrega, pelo suporte e pelo que promete na página de venda.
      </li>
      <li>
        <strong>A Vitrine</strong> é a plataforma: processa o pagamento por meio de parceiros de
        pagamento, libera o acesso quando o pagamento é confirmado e repassa os valores ao produtor.
      </li>
    </ul>
    <h2>Pagamento</h2>
    <p>
      Aceitamos PIX, cartão de crédito e boleto, conforme o que o produtor oferece. O acesso é
      liberado quando o pagamento é confirmado. Os dados do cartão vão para o processador de
      pagamentos e não ficam guardados pela Vitrine.
    </p>
    <h2>Garantia e arrependimento</h2>
    <p>
      Você pode desistir da compra em até 7 dias (Código de Defesa do Consumidor, art. 49) ou no
      prazo de garantia indicado na página, se for maior, e recebe o valor de volta pelo mesmo meio
      de pagamento. Peça o reembolso na área de membros.
    </p>
    <h2>Assinaturas</h2>
    <p>
      Produtos por assinatura são cobrados a cada período até o cancelamento, que você faz a
      qualquer momento na área de membros; o período já pago continua disponível.
    </p>
    <h2>Contato</h2>
    <p>
      Dúvidas sobre o produto: fale com o produtor. Dúvidas sobre o pagamento ou o acesso: responda
      ao e-mail de confirmação da compra.
    </p>
  </LegalPage>
)

const privacy = (
  <LegalPage title="Política de privacidade">
    <p>
      Esta política explica quais dados a Vitrine trata quando você compra por uma de suas páginas
      de pagamento, conforme a Lei Geral de Proteção de Dados (LGPD, Lei 13.709/2018).
    </p>
    <h2>Dados que coletamos</h2>
    <ul>
      <li>Nome, e-mail, CPF ou CNPJ e celular: para emitir a cobrança e liberar o acesso.</li>
      <li>
        Dados de pagamento: o cartão vai direto ao processador de pagamentos; guardamos apenas os
        últimos 4 dígitos e o resultado da cobrança.
      </li>
      <li>Endereço IP e dados técnicos da compra: para prevenir fraudes.</li>
    </ul>
    <h2>Com quem compartilhamos</h2>
    <ul>
      <li>Com o produtor de quem você comprou, que precisa deles para atender você.</li>
      <li>Com o processador de pagamentos, para cobrar a compra.</li>
      <li>Com afiliados, apenas o necessário para calcular comissões, nunca seus documentos.</li>
    </ul>
    <h2>Seus direitos</h2>
    <p>
      Você pode pedir acesso, correção ou exclusão dos seus dados, salvo os que a lei manda guardar
      (como registros fiscais), respondendo ao e-mail de confirmação da compra.
    </p>
    <h2>Cookies</h2>
    <p>
      Usamos cookies para manter sua sessão e para atribuir a venda ao afiliado que indicou o
      produto (30 dias). Não usamos cookies de publicidade.
    </p>
  </LegalPage>
)

export const legalPages: RouteModule = (app) => {
  const pages = { '/termos': render(terms), '/privacidade': render(privacy) }
  for (const [path, html] of Object.entries(pages)) {
    app.get(
      path,
      { schema: { hide: true }, config: { guard: 'public' } },
      async (_request, reply) => reply.type('text/html').send(html),
    )
  }
}
