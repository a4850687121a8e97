// The dashboard's styles, mobile first: one column with the navigation as a scrollable strip on
// a phone; a side bar from 900 px.
import { CONTROLS_CSS } from '../login-forms.tsx'

export const DASHBOARD_CSS = `${CONTROLS_CSS}
main{max-width:1180px}.shell{display:block}.top{display:flex;align-items:center;gap:8px;
justify-content:space-between;flex-wrap:wrap;margin:0 0 8px}.top p{margin:0}
nav.sections ul{display:flex;gap:4px;overflow-x:auto;padding:0 0 8px;margin:0 0 8px}
nav.sections li{border:0;padding:0;flex:0 0 auto}nav.sections a{display:block;padding:8px 12px;
border-radius:8px;text-decoration:none;color:#1d1d1f;background:#fff;white-space:nowrap}
nav.sections a[aria-current=page]{background:#5b2bd6;color:#fff}
@media (min-width:900px){.shell{display:grid;grid-template-columns:220px 1fr;gap:20px}
nav.sections ul{flex-direction:column;overflow:visible}nav.sections a{white-space:normal}}
dl{display:grid;grid-template-columns:1fr auto;gap:4px 12px;margin:0}dd{margin:0;text-align:right;
font-weight:600}form p{margin:0 0 8px}fieldset{border:1px solid #ddd;border-radius:8px;margin:0 0 8px}
.check{display:flex;gap:8px;align-items:center}.check input{width:auto}.key{word-break:break-all}
li li{border:0;padding:4px 0}.form-error{color:#b00020;font-weight:600;margin:8px 0 0}
.form-error:empty{display:none}#aviso{color:#0b6b2e;font-weight:600;margin:0 0 8px}#aviso:empty{display:none}
.row{display:flex;flex-wrap:wrap;gap:4px 12px;justify-content:space-between}
.badge{display:inline-block;padding:0 8px;border-radius:99px;background:#eee;font-size:.85rem}
.grid{display:grid;gap:8px;grid-template-columns:repeat(auto-fill,minmax(200px,1fr))}
.stat{font-size:1.4rem;font-weight:700;margin:0}textarea{font:inherit;padding:7px;border:1px solid #888;
border-radius:8px;width:100%}button.danger{background:#b00020;border-color:#b00020}
.steps li{display:flex;gap:8px;align-items:baseline}.done{text-decoration:line-through;color:#555}
.explain{grid-column:1/-1;text-align:left;font-weight:400;margin:-2px 0 6px}.scopes li{padding:2px 0}
ol.plans{padding-left:1.2rem}
.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}.chart{margin:12px 0 0}.chart svg{display:block;max-width:100%;height:auto}.filters{display:grid;gap:0 12px;grid-template-columns:repeat(auto-fill,minmax(150px,1fr))}.pager{display:flex;flex-wrap:wrap;gap:8px 16px}`
