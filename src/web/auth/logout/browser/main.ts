// The "Sair" button (auth/logout.tsx), wherever a page includes it.
import { wireLogoutButton } from '../../../browser/session.ts'

wireLogoutButton()
