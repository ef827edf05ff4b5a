import { describe, expect, it } from "vitest";
import { invoiceRequestEmail } from "./invoice-request";

const shop = {
  name: "Oro de Luna",
  email: "hola@orodeluna.mx",
  whatsapp: "5215512345678",
  instagramUrl: "https://instagram.com/orodeluna",
  agencyName: "",
  agencyUrl: "",
  processVideoUrl: null,
};

const mail = {
  orderId: "OL-AAAA1111",
  total: "$2,320.00",
  rfc: "EKU9003173C9",
  name: "ESCUELA KEMPER URGATE <B>",
  postalCode: "42501",
  regimen: "601",
  uso: "G03",
  email: "contabilidad@kemper.mx",
  corrected: false,
  until: "30 nov 2026, 23:59",
  pageUrl: "https://orodeluna.mx/mi-pedido/OL-AAAA1111/factura?firma=abc",
};

describe("the acknowledgement of 'Requiero factura'", () => {
  it("says what the factura will carry, what happens next and until when it may be corrected", async () => {
    const message = await invoiceRequestEmail(mail, shop);
    expect(message.subject).toBe("Recibimos tu solicitud de factura del pedido OL-AAAA1111");
    expect(message.text).toContain("RFC: EKU9003173C9");
    expect(message.text).toContain("Régimen fiscal: 601 · General de Ley Personas Morales");
    expect(message.text).toContain("Uso del CFDI: G03 · Gastos en general");
    expect(message.text).toContain("PDF y XML a contabilidad@kemper.mx");
    expect(message.text).toContain(
      `corrígelo hasta el 30 nov 2026, 23:59 (hora del centro de México): ${mail.pageUrl}`,
    );
    expect(message.html).toContain("ESCUELA KEMPER URGATE &lt;B&gt;");
    expect(message.html).toContain(`href="${mail.pageUrl}"`);
  });

  it("a correction says so; once the month closed it offers no correction", async () => {
    const message = await invoiceRequestEmail({ ...mail, corrected: true, until: null }, shop);
    expect(message.subject).toBe("Actualizamos los datos de tu factura del pedido OL-AAAA1111");
    expect(message.text).not.toContain("corrígelo");
    expect(message.html).not.toContain("Ver o corregir");
  });
});
