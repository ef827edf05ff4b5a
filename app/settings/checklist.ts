import { DEMO_SHOP_DETAILS } from "~/config/shop-details";
import { hasOwnerNote } from "~/content/legal";
import { LEGAL_FIELDS, LEGAL_LABELS, type LegalField, type ShopSettings } from "./settings";

/*
 * The set-up checklist (issue 25): what still stands between the demo shop and a shop that can
 * sell, each item with why it matters and where to fix it, in Spanish. Shown at the top of the
 * admin until it is empty. Plain TypeScript: the admin's pages render the items this returns.
 */

/** Where an item is fixed: a page of the admin, or the server's configuration (no page sets it). */
export type ChecklistFix = { kind: "page"; href: string; label: string } | { kind: "server"; text: string };

export interface ChecklistItem {
  /** Stable: one per legal page ('aviso-de-privacidad'…), 'correo', 'pagos', 'segundo-factor', 'datos-de-la-tienda'. */
  id: string;
  title: string;
  why: string;
  fix: ChecklistFix;
}

/** What the checklist looks at; everything in memory but the administrators' second factors. */
export interface ShopState {
  settings: ShopSettings;
  /** No SMTP server configured: every e-mail is a file in the outbox. */
  mailToOutbox: boolean;
  /** Payments on the built-in demo page, not Stripe. */
  demoPayments: boolean;
  /** The e-mails of the administrators whose second factor is not set up. */
  adminsWithoutSecondFactor: readonly string[];
}

/** The shop's details as Configuración labels them, in its order. */
const DETAIL_LABELS: Record<keyof typeof DEMO_SHOP_DETAILS, string> = {
  name: "Nombre de la tienda",
  email: "Correo de contacto",
  whatsapp: "WhatsApp",
  instagramUrl: "Instagram",
  agencyName: "Agencia (Powered by)",
  agencyUrl: "Sitio de la agencia",
};

/** The anchor of a legal text in Configuración: its public address without the slash. */
export const legalAnchor = (field: LegalField) => LEGAL_FIELDS[field].slice(1);
export const DETAILS_ANCHOR = "datos-de-la-tienda";

const MAX_NAMED_ADMINS = 3;

/** A list in Spanish: 'a', 'a y b', 'a, b y c'. */
function spanishList(parts: readonly string[]): string {
  if (parts.length <= 1) return parts.join("");
  return `${parts.slice(0, -1).join(", ")} y ${parts.at(-1)}`;
}

function legalItems(settings: ShopSettings): ChecklistItem[] {
  return (Object.keys(LEGAL_FIELDS) as LegalField[]).flatMap((field): ChecklistItem[] => {
    const label = LEGAL_LABELS[field];
    const own = settings.legal[field];
    const fix: ChecklistFix = {
      kind: "page",
      href: `/admin/settings#${legalAnchor(field)}`,
      label: `Editar «${label}» en Configuración`,
    };
    const privacy =
      field === "legalPrivacy"
        ? " La ley pide que el aviso diga tu nombre o razón social y tu domicilio completo."
        : "";
    if (own === null) {
      return [
        {
          id: legalAnchor(field),
          title: `«${label}» sigue con el texto modelo`,
          why: `Es un punto de partida, no tus condiciones: revísalo y adáptalo a tu negocio, de preferencia con asesoría legal, antes de vender. Tus clientes ya lo leen en la tienda (sin tus indicaciones entre corchetes).${privacy}`,
          fix,
        },
      ];
    }
    if (hasOwnerNote(own)) {
      return [
        {
          id: legalAnchor(field),
          title: `«${label}» todavía tiene una indicación para ti entre corchetes`,
          why: `Las indicaciones «[Dueño de la tienda: …]» no se muestran a tus clientes, pero lo que piden sigue faltando en el texto. Complétalo y borra la indicación.${privacy}`,
          fix,
        },
      ];
    }
    return [];
  });
}

function detailsItem(settings: ShopSettings): ChecklistItem[] {
  const still = (Object.keys(DETAIL_LABELS) as (keyof typeof DEMO_SHOP_DETAILS)[]).filter(
    (key) => settings.shop[key] === DEMO_SHOP_DETAILS[key],
  );
  if (still.length === 0) return [];
  return [
    {
      id: DETAILS_ANCHOR,
      title: "Los datos de la tienda siguen siendo los de demostración",
      why: `Tus clientes los ven en cada página, en los correos y en los textos legales: con los de demostración te buscarían en otra parte. Siguen igual: ${spanishList(still.map((k) => DETAIL_LABELS[k]))}.`,
      fix: {
        kind: "page",
        href: `/admin/settings#${DETAILS_ANCHOR}`,
        label: "Cambiar los datos en Configuración",
      },
    },
  ];
}

/** The items still to do, in the order the owner would best take them; empty when the shop is set up. */
export function setUpChecklist(state: ShopState): ChecklistItem[] {
  const items: ChecklistItem[] = [...detailsItem(state.settings), ...legalItems(state.settings)];
  if (state.mailToOutbox) {
    items.push({
      id: "correo",
      title: "Los correos se guardan en la bandeja de salida: no se envían",
      why: "Sin un servidor de correo, tus clientes no reciben la confirmación de su compra, el aviso de envío con su guía ni los correos de «Avísame»: cada mensaje se queda como un archivo en el servidor.",
      fix: {
        kind: "server",
        text: 'En el servidor, define SMTP_URL (p. ej. smtps://usuario:contraseña@servidor:465) y MAIL_FROM con una dirección de tu propio dominio (p. ej. "Tu marca" <hola@tumarca.mx>; con la de demostración tus correos llegarían a spam), y reinicia la tienda. Las respuestas de tus clientes llegan al correo de Configuración. Si tu plan de correo tiene un límite al día, defínelo también en MAIL_DAILY_LIMIT (p. ej. 2000): los avisos de «Avísame» dejan una cuarta parte para los correos de pedidos.',
      },
    });
  }
  if (state.demoPayments) {
    items.push({
      id: "pagos",
      title: "Los pagos son de demostración: no se cobra nada",
      why: "La página de pago de demostración no cobra: cualquiera puede «pagar» un pedido sin tarjeta y se lo enviarías. Conecta Stripe antes de vender.",
      fix: {
        kind: "server",
        text: "En el servidor, define STRIPE_SECRET_KEY y STRIPE_WEBHOOK_SECRET (el webhook de Stripe va a /api/stripe/webhook) y reinicia la tienda.",
      },
    });
  }
  const without = state.adminsWithoutSecondFactor;
  if (without.length > 0) {
    const named = spanishList([
      ...without.slice(0, MAX_NAMED_ADMINS),
      ...(without.length > MAX_NAMED_ADMINS ? [`${without.length - MAX_NAMED_ADMINS} más`] : []),
    ]);
    items.push({
      id: "segundo-factor",
      title:
        without.length === 1
          ? "Un administrador no tiene segundo factor"
          : `${without.length} administradores no tienen segundo factor`,
      why: `Sin el código de la app de autenticación, basta la contraseña para entrar a la administración: a tus pedidos y a los datos de tus clientes. Cada cuenta lo configura al iniciar sesión por primera vez; falta en: ${named}.`,
      fix: {
        kind: "server",
        text: "Pide a cada cuenta que inicie sesión y configure su app. Para ver las cuentas y si tienen segundo factor: npm run admin -- list.",
      },
    });
  }
  return items;
}
