// The dashboard's one script: the log-in form (logged out) and every section's writes.
import { wireLoginForm } from '../../browser/session.ts'
import { wireCatalogForms } from './catalog-forms.ts'
import { wireForms } from './forms.ts'
import { wireMoneyHelpers } from './money-helpers.ts'
import { wirePixKeyInput } from './pix-key-input.ts'

wireLoginForm()
wireForms()
wirePixKeyInput()
wireMoneyHelpers()
wireCatalogForms()
