// The members area's pages while logged out: ask for a new link, or log in with a password.
import { wireLoginLinkForm } from '../../browser/login-link.ts'
import { wireLoginForm } from '../../browser/session.ts'

wireLoginLinkForm()
wireLoginForm()
