// /admin's script: the log-in form (without a session), else search, the PIX key queue and the
// withdrawal history. Each action says what it did in #mensagem (role=status).
import { wireLoginForm } from '../../browser/session.ts'
import type { AdminConfig } from '../config.ts'
import { wirePixKeys } from './pix-keys.ts'
import { wireSearch } from './search.ts'
import { wireWithdrawals } from './withdrawals.ts'

wireLoginForm()

const configTag = document.getElementById('admin-config')
if (configTag) {
  const cfg = JSON.parse(configTag.textContent ?? '{}') as AdminConfig
  const message = document.getElementById('mensagem') as HTMLElement
  const say = (text: string) => {
    message.textContent = text
  }
  wireSearch()
  wirePixKeys(say)
  wireWithdrawals(cfg, say)()
}
