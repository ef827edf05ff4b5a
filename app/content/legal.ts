/**
 * Model text of the legal pages a Mexican online shop that collects names, phones and addresses
 * needs. It is a starting point the owner adapts (with legal advice) to the business: the set-up
 * checklist of the admin says so while a page keeps it, and its notes to her, in brackets
 * ('[Dueño de la tienda: …]'), are hers only: shoppers read the page without them. The brand name
 * and contact come from the shop settings.
 */

export interface LegalShop {
  name: string;
  email: string;
  whatsapp: string;
}

export interface LegalSection {
  heading: string;
  paragraphs: string[];
  items?: string[];
}

export interface LegalPage {
  path: string;
  title: string;
  description: string;
  sections: LegalSection[];
}

export const LEGAL_LINKS = [
  { path: "/aviso-de-privacidad", label: "Aviso de privacidad" },
  { path: "/envios", label: "Envíos" },
  { path: "/cambios-y-devoluciones", label: "Cambios y devoluciones" },
  { path: "/terminos-y-condiciones", label: "Términos y condiciones" },
] as const;

export type LegalPath = (typeof LEGAL_LINKS)[number]["path"];

export function isLegalPath(path: string): path is LegalPath {
  return LEGAL_LINKS.some((l) => l.path === path);
}

/** The model's notes to the owner ('[Dueño de la tienda: …]'), with the space before each. */
const OWNER_NOTE = /\s*\[Dueño de la tienda:[^\]]*\]/gu;

/** Whether a text still holds a note of the model to the owner. */
export function hasOwnerNote(text: string): boolean {
  return text.search(OWNER_NOTE) !== -1;
}

const withoutNote = (text: string) => text.replace(OWNER_NOTE, "").trim();

/**
 * The sections as shoppers read them: the notes to the owner taken out, and a paragraph, item or
 * section left empty by that taken out too.
 */
export function withoutOwnerNotes(sections: LegalSection[]): LegalSection[] {
  const said = (s: LegalSection) => s.paragraphs.length > 0 || (s.items?.length ?? 0) > 0;
  return sections.flatMap((section) => {
    const paragraphs = section.paragraphs.map(withoutNote).filter(Boolean);
    const items = section.items?.map(withoutNote).filter(Boolean);
    const shown: LegalSection = { ...section, paragraphs, ...(section.items ? { items } : {}) };
    return said(shown) || !said(section) ? [shown] : [];
  });
}

/** When the model text was last reviewed; the owner changes it with the text. */
export const LEGAL_UPDATED = "27 de noviembre de 2026";

export function legalPage(path: LegalPath, shop: LegalShop): LegalPage {
  const contact = `${shop.email} o por WhatsApp al +${shop.whatsapp}`;
  switch (path) {
    case "/aviso-de-privacidad":
      return {
        path,
        title: "Aviso de privacidad",
        description: `Cómo ${shop.name} trata tus datos personales y cómo ejercer tus derechos ARCO.`,
        sections: [
          {
            heading: "Responsable de tus datos",
            paragraphs: [
              `${shop.name} (en adelante, «la tienda») es responsable del tratamiento de los datos personales que nos proporcionas, conforme a la Ley Federal de Protección de Datos Personales en Posesión de los Particulares y su normativa. Para cualquier asunto de privacidad puedes escribirnos a ${contact}.`,
              "[Dueño de la tienda: agrega aquí tu nombre o razón social y tu domicilio completo, que la ley pide en el aviso.]",
            ],
          },
          {
            heading: "Datos que recabamos",
            paragraphs: [
              "Cuando compras, recabamos únicamente los datos necesarios para entregarte tu pedido y atender lo que nos pidas después de la compra:",
            ],
            items: [
              "Identificación y contacto: nombre completo, correo electrónico y teléfono.",
              "Envío: calle y número, colonia, código postal, ciudad o municipio y estado.",
              "Datos del pedido: las piezas, el importe y la fecha de compra, y el identificador de la tarjeta que nos da el procesador de pagos (no es el número de la tarjeta: sirve para respetar el máximo de piezas por persona de una colección).",
              "Datos técnicos: una cookie que identifica a tu navegador (para proteger el pago y evitar abusos), el carrito guardado en tu propio navegador y la dirección IP de tu conexión, que guardamos con tu pedido y en los registros del servidor para limitar abusos (por ejemplo, cuántas piezas se apartan desde una misma conexión en la apertura de una colección).",
              "Si pides factura: RFC, nombre o razón social, régimen fiscal, código postal fiscal, uso del CFDI y el correo al que te la enviamos, solo para emitir tu CFDI y cumplir con nuestras obligaciones fiscales.",
              "Si pides una devolución: el motivo que eliges y los comentarios que nos escribes, para atenderla.",
            ],
          },
          {
            heading: "Datos que no recabamos",
            paragraphs: [
              "No recabamos datos personales sensibles. Los datos de tu tarjeta los recibe directamente el procesador de pagos: la tienda no los ve ni los guarda.",
            ],
          },
          {
            heading: "Finalidades",
            paragraphs: [
              "Usamos tus datos para estas finalidades, necesarias para la relación que tienes con la tienda:",
            ],
            items: [
              "Procesar, cobrar, preparar y enviar tu pedido.",
              "Enviarte la confirmación de compra y el aviso de envío con tu número de guía.",
              "Atender tus dudas, cambios, devoluciones y garantías.",
              "Cumplir obligaciones fiscales y legales.",
            ],
          },
          {
            heading: "Finalidades secundarias",
            paragraphs: [
              "Solo si lo pides (por ejemplo, al registrarte en «Avísame» para una colección), te escribimos cuando abre una colección nueva. Puedes negarte o darte de baja en cualquier momento desde el enlace de cada correo o escribiéndonos; negarte no afecta tus compras.",
            ],
          },
          {
            heading: "Transferencias",
            paragraphs: [
              "Compartimos tus datos solo con quienes los necesitan para cumplir tu pedido: la empresa de paquetería (nombre, teléfono y dirección de entrega) y el procesador de pagos (importe y correo, y los datos que captures en su página de pago, como tu nombre, teléfono y dirección de envío). Estas transferencias son necesarias para cumplir el contrato de compraventa, por lo que no requieren tu consentimiento. No vendemos ni rentamos tus datos. También podemos entregarlos a una autoridad que los requiera conforme a la ley.",
            ],
          },
          {
            heading: "Derechos ARCO y revocación del consentimiento",
            paragraphs: [
              `Tienes derecho a Acceder a tus datos, Rectificarlos si son inexactos, Cancelarlos cuando consideres que no se requieren para las finalidades señaladas y Oponerte a su uso para fines específicos (derechos ARCO), así como a revocar tu consentimiento. Envía tu solicitud a ${shop.email} con:`,
            ],
            items: [
              "Tu nombre y un medio para responderte.",
              "Una copia de tu identificación oficial (o la de tu representante y el documento que lo acredite).",
              "Una descripción clara de los datos y del derecho que quieres ejercer; si se trata de un pedido, su número.",
            ],
          },
          {
            heading: "Plazos de respuesta",
            paragraphs: [
              "Te responderemos en un máximo de 20 días hábiles desde que recibamos tu solicitud completa y, si procede, la haremos efectiva dentro de los 15 días hábiles siguientes. Si no estás conforme con la respuesta, puedes acudir a la autoridad competente en materia de protección de datos personales.",
            ],
          },
          {
            heading: "Conservación",
            paragraphs: [
              "Conservamos los datos de tus pedidos el tiempo que exigen las obligaciones fiscales y de garantía; después los eliminamos o los hacemos anónimos. Si no llegas a pagar un pedido (por ejemplo, una ficha que venció), borramos de él tus datos un mes después.",
            ],
          },
          {
            heading: "Cambios a este aviso",
            paragraphs: [
              `Cualquier cambio a este aviso se publicará en esta misma página, con su fecha de actualización. Última actualización: ${LEGAL_UPDATED}.`,
            ],
          },
        ],
      };
    case "/envios":
      return {
        path,
        title: "Envíos",
        description: `Tiempos, costos y seguimiento de los envíos de ${shop.name}.`,
        sections: [
          {
            heading: "Cobertura",
            paragraphs: [
              "Enviamos a todo México a través de paqueterías con seguimiento en línea. Por ahora no hacemos envíos internacionales.",
            ],
          },
          {
            heading: "Tiempos",
            paragraphs: [
              "Cada pieza se revisa y empaca a mano: preparamos tu pedido en un plazo de 1 a 3 días hábiles después de confirmado el pago. La paquetería tarda después de 2 a 7 días hábiles, según el destino.",
            ],
          },
          {
            heading: "Costo",
            paragraphs: [
              // What the checkout charges (Configuración › Envíos, decision 43): never a promise of
              // free shipping the cart then contradicts.
              "El costo del envío depende de la opción que elijas, y lo ves en tu carrito antes de pagar. [Dueño de la tienda: si quieres, di aquí tus tarifas y desde qué monto el envío es gratis, como las pusiste en Configuración › Envíos.]",
            ],
          },
          {
            heading: "Seguimiento",
            paragraphs: [
              "Cuando entregamos tu pedido a la paquetería te enviamos un correo con la empresa y el número de guía, y un enlace para seguirlo cuando la paquetería lo ofrece.",
            ],
          },
          {
            heading: "Entrega",
            paragraphs: [
              "Por tratarse de joyería, el paquete puede requerir firma de recibido. Revisa que la dirección sea correcta al pagar: si el paquete vuelve por una dirección incompleta o porque nadie lo recibió, el reenvío puede tener costo.",
              `Si tu paquete llega abierto o dañado, no lo recibas o repórtalo dentro de las 48 horas siguientes, con fotos, a ${contact}.`,
            ],
          },
        ],
      };
    case "/cambios-y-devoluciones":
      return {
        path,
        title: "Cambios y devoluciones",
        description: `Cómo pedir un cambio, una devolución o hacer válida la garantía en ${shop.name}.`,
        sections: [
          {
            heading: "Devoluciones",
            paragraphs: [
              "Como compraste a distancia, puedes devolver tu pedido dentro de los 5 días hábiles siguientes a la entrega, sin tener que dar un motivo, conforme a la Ley Federal de Protección al Consumidor. La pieza debe estar sin uso, en su empaque original y con sus accesorios.",
              "Te reembolsamos el importe de las piezas por el mismo medio de pago (si pagaste en efectivo en OXXO, por transferencia a la cuenta que nos indiques; si pagaste por transferencia, a la cuenta desde la que transferiste) dentro de los 10 días hábiles siguientes a recibir la devolución y revisarla.",
            ],
          },
          {
            heading: "Cambios",
            paragraphs: [
              "Dentro del mismo plazo puedes cambiar tu pieza por otra de igual o mayor precio, si hay disponibilidad. Las colecciones son de piezas limitadas: no siempre podremos ofrecer la misma pieza en otra talla o medida.",
            ],
          },
          {
            heading: "Excepciones",
            paragraphs: ["Por higiene y por tratarse de trabajos únicos, no aceptamos devoluciones de:"],
            items: [
              "Aretes que hayan sido usados o a los que les falte su sello.",
              "Piezas hechas o grabadas a tu medida.",
            ],
          },
          {
            heading: "Garantía",
            paragraphs: [
              "Todas nuestras piezas tienen garantía de 90 días contra defectos de fabricación (soldaduras, broches, engastes). La garantía no cubre el desgaste normal, golpes, pérdida de piedras por mal uso ni contacto con químicos.",
            ],
          },
          {
            heading: "Cómo solicitarlo",
            paragraphs: [
              "Una devolución se pide desde «Mi pedido» (el enlace de tu correo de confirmación, o con tu número de pedido y tu correo en la página Mi pedido), dentro de los 5 días hábiles siguientes a la entrega: ahí eliges las piezas y el motivo, y te decimos a dónde enviarlas.",
              `Para un cambio o la garantía, escríbenos a ${contact} con tu número de pedido y una foto de la pieza. Te diremos cómo enviarla; si el motivo es un defecto o un error nuestro, el envío corre por nuestra cuenta.`,
            ],
          },
        ],
      };
    case "/terminos-y-condiciones":
      return {
        path,
        title: "Términos y condiciones",
        description: `Las condiciones de compra en la tienda en línea de ${shop.name}.`,
        sections: [
          {
            heading: "Quiénes somos",
            paragraphs: [
              `Esta tienda en línea es operada por ${shop.name}. Contacto: ${contact}. Al comprar aceptas estas condiciones, junto con nuestro Aviso de privacidad y nuestras políticas de Envíos y de Cambios y devoluciones.`,
            ],
          },
          {
            heading: "Las piezas",
            paragraphs: [
              "Nuestras piezas son de oro y están hechas a mano: pequeñas variaciones de forma, tono o acabado respecto de las fotografías son propias del trabajo artesanal y no se consideran defectos.",
            ],
          },
          {
            heading: "Colecciones por tiempo limitado",
            paragraphs: [
              "Vendemos en colecciones («drops») que abren y cierran en fechas y horas anunciadas, con existencias limitadas. Una colección puede fijar un máximo de piezas por persona.",
              "Al iniciar el pago apartamos tus piezas durante el tiempo indicado (de 10 a 30 minutos; en la apertura de una colección puede ser desde 5). Si el pago no se completa en ese tiempo, las piezas vuelven a la tienda; mientras tanto se muestran como «Apartado».",
            ],
          },
          {
            heading: "Máximo de piezas por persona",
            paragraphs: [
              "Cuando una colección dice «Máximo N por persona», el máximo cuenta todas tus compras de esa colección, no solo un pedido. Lo revisamos cuando el procesador de pagos nos da tus datos (al cobrar, o al darte una ficha de pago), porque antes la tienda no puede saber quién compra: cuentan como una misma persona los pedidos pagados con el mismo correo electrónico, con la misma tarjeta (según el identificador que nos da el procesador de pagos, nunca el número de la tarjeta) o enviados a la misma dirección (calle y número, código postal y país).",
              "Los primeros pedidos pagados se quedan con sus piezas. Si un pedido pasa del máximo, lo cancelamos completo de forma automática, te reembolsamos el importe total por el mismo medio de pago (si pagaste en efectivo en OXXO, por transferencia a la cuenta que nos indiques; si pagaste por transferencia, a la cuenta desde la que transferiste) y te avisamos por correo; sus piezas pasan a quien sigue en la fila. Si crees que se trata de un error (por ejemplo, dos personas distintas que viven en la misma dirección), escríbenos y lo revisamos.",
              "Si pagas en efectivo en una tienda de conveniencia, tus piezas quedan apartadas como máximo hasta que vence tu ficha de pago, y durante las primeras horas de una colección solo por el tiempo normal del apartado.",
              "Si al darte una ficha de pago (en efectivo en OXXO o por transferencia SPEI) ya llegaste al máximo, contando tus pedidos pagados y tus fichas aún sin pagar, cancelamos esa ficha antes de que la pagues: ya no se puede pagar, no se te cobra nada y te avisamos por correo; sus piezas pasan a quien sigue en la fila.",
            ],
          },
          {
            heading: "Precios y pago",
            paragraphs: [
              "Los precios están en pesos mexicanos (MXN) e incluyen IVA. El pago se hace con tarjeta, en efectivo en OXXO o por transferencia SPEI (cuando la colección los ofrece), en la página segura del procesador de pagos; la tienda no recibe ni guarda los datos de tu tarjeta. El pedido queda confirmado cuando recibimos la confirmación del pago y te enviamos el correo de confirmación.",
            ],
          },
          {
            heading: "Cancelaciones por parte de la tienda",
            paragraphs: [
              "Si por un error evidente de precio o de existencias no podemos surtir tu pedido, te lo avisaremos y te reembolsaremos el importe completo por el mismo medio de pago.",
            ],
          },
          {
            heading: "Propiedad intelectual",
            paragraphs: [
              "Los diseños, las fotografías y los textos de este sitio son de la tienda o de sus autores y no pueden usarse sin autorización.",
            ],
          },
          {
            heading: "Legislación aplicable",
            paragraphs: [
              "Estas condiciones se rigen por las leyes de los Estados Unidos Mexicanos, en particular la Ley Federal de Protección al Consumidor. Para cualquier queja puedes acudir a la Procuraduría Federal del Consumidor (PROFECO).",
              `Última actualización: ${LEGAL_UPDATED}.`,
            ],
          },
        ],
      };
  }
}
