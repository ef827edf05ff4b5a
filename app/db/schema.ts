import type { ColumnType, Generated, Insertable, Selectable } from "kysely";
import type { Categoria, DropStatus, Material } from "~/db/taxonomy";

/**
 * Timestamps are `timestamptz` on PostgreSQL and ISO-8601 UTC text on SQLite. They are read back
 * through `toDate()` and written only as `toTimestamp()` strings, so SQLite compares them as text
 * exactly as PostgreSQL compares instants.
 */
type Timestamp = ColumnType<Date | string, string, string>;
type NullableTimestamp = ColumnType<Date | string | null, string | null | undefined, string | null>;

export interface ShopMetaTable {
  key: string;
  value: string;
}

export interface MediaTable {
  id: string;
  drop_id: string | null;
  kind: "image" | "video";
  /** Storage key without the width suffix, e.g. `drops/<dropId>/<mediaId>`. */
  key: string;
  width: number;
  height: number;
  /** Widths stored as `<key>-<width>.webp`, comma separated, ascending. Empty for videos. */
  widths: string;
  /**
   * Widths also stored as JPEG for e-mails (`<key>-<width>.jpg`), like `widths`. Empty: none yet
   * (a photo stored before migration 0036 waits for the job that makes them; a video); "0": none
   * can be made (its WebP copy is gone).
   */
  jpeg_widths: ColumnType<string, string | undefined, string>;
  mime: string;
  /** What the photo shows, for screen readers; empty: the page uses the product's or drop's name. */
  alt: ColumnType<string, string | undefined, string>;
  created_at: Timestamp;
}

export interface DropsTable {
  id: string;
  name: string;
  small_description: string;
  full_description: string;
  description: string;
  fechas: string;
  start_at: Timestamp;
  end_at: Timestamp;
  status: DropStatus;
  image_id: string | null;
  video_id: string | null;
  /** Pieces of this drop one order may take ('Máximo N por persona'); null: the shop's limits only. */
  max_per_order: number | null;
  /** How long a checkout holds this drop's pieces, in minutes (10 to 30). */
  hold_minutes: ColumnType<number, number | undefined, number>;
  /** Seconds after the opening during which checkouts are drawn in a random order (decision 27). */
  lottery_seconds: ColumnType<number, number | undefined, number>;
  /** How long the opening's rules last, in minutes from the start. */
  opening_minutes: ColumnType<number, number | undefined, number>;
  /** A checkout's hold during the opening, in minutes. */
  opening_hold_minutes: ColumnType<number, number | undefined, number>;
  /** Pieces one address bucket (IPv4, IPv6 /64) may hold or buy during the opening. */
  opening_holds_per_address: ColumnType<number, number | undefined, number>;
  /** Until when one app process dispatches this drop's line. */
  line_lease_until: NullableTimestamp;
  /** From when the public sees the drop (decision 38); null: a draft, seen only in the admin. */
  visible_from: NullableTimestamp;
  /** 'Solo tarjeta': hours from the start during which no cash voucher nor transfer is offered (decision 42). */
  card_only_hours: ColumnType<number, number | undefined, number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ProductsTable {
  id: string;
  drop_id: string;
  position: number;
  name: string;
  description: string;
  categoria: Categoria;
  material: Material;
  price_cents: number;
  stock: number;
  image_id: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** 10, 14 or 18 (a CHECK); null: not said. See catalogue/metal.ts. */
  karat: ColumnType<number | null, number | null | undefined, number | null>;
  /** The weight in whole milligrams (2.35 g is 2350), more than 0 and at most 1 kg; null: not said. */
  weight_mg: ColumnType<number | null, number | null | undefined, number | null>;
  /** The stones, 1–80 characters; null for none. */
  stones: ColumnType<string | null, string | null | undefined, string | null>;
  /** A limited edition of this many numbered pieces; null: not numbered. */
  edition_size: ColumnType<number | null, number | null | undefined, number | null>;
  /** The product's one option ('Talla', 'Largo'); null: none. Its `stock` is then its values' sum. */
  option_name: ColumnType<
    "Talla" | "Largo" | null,
    "Talla" | "Largo" | null | undefined,
    "Talla" | "Largo" | null
  >;
}

/** One value of a product's option ('7', '45 cm') with its own stock (decision 34). */
export interface ProductOptionsTable {
  id: string;
  product_id: string;
  value: string;
  position: number;
  stock: number;
}

/** The number a paid unit of an edition carries ('Pieza 7 de 30'), unique per product. */
export interface EditionNumbersTable {
  product_id: string;
  number: number;
  order_id: string;
  /** The order line's position. */
  position: number;
  assigned_at: Timestamp;
}

export interface ProductImagesTable {
  product_id: string;
  /** 1..4: the extra images after the main one. */
  position: number;
  media_id: string;
}

/** `cancelado`: paid beyond a drop's 'Máximo N por persona', refunded, pieces back (decision 29). */
export type OrderStatus = "esperando_pago" | "pendiente" | "enviado" | "archivado" | "expirado" | "cancelado";

export interface OrdersTable {
  id: string;
  status: OrderStatus;
  total_cents: number;
  currency: string;
  customer_name: string;
  customer_email: string;
  payment_provider: string;
  payment_session_id: string | null;
  expires_at: Timestamp;
  paid_at: NullableTimestamp;
  stock_issue: string | null;
  ship_name: string | null;
  ship_phone: string | null;
  ship_line1: string | null;
  ship_line2: string | null;
  ship_city: string | null;
  ship_state: string | null;
  ship_postal_code: string | null;
  ship_country: string | null;
  tracking_number: string | null;
  carrier: string | null;
  shipped_at: NullableTimestamp;
  /** The days after shipping it counts as delivered, as set when it shipped; null: the setting's. */
  delivery_days: ColumnType<number | null, number | null | undefined, number | null>;
  /** 'Borrar del historial' took it off the desk's tabs then (the record stays); null: on them. */
  removed_at: NullableTimestamp;
  /** 'Meses sin intereses': the months of the plan the buyer paid in; null for one payment. */
  installment_months: ColumnType<number | null, number | null | undefined, number | null>;
  /** Shipping the buyer paid, apart from the pieces (total_cents includes it); 0 before payment. */
  shipping_cents: ColumnType<number, number | undefined, number>;
  /** 'estandar' or 'express' as chosen on the payment page; null: none chosen (or not said). */
  shipping_method: ColumnType<string | null, string | null | undefined, string | null>;
  /** The shipping as the order says it: 'Envío express (1 a 2 días hábiles)'. */
  shipping_label: ColumnType<string | null, string | null | undefined, string | null>;
  /** Order number and customer name, folded for search (see orders/search.ts). */
  search_text: ColumnType<string, string | undefined, string>;
  /** The browser whose payment page for this order is open (one per browser while unpaid). */
  checkout_browser: ColumnType<string | null, string | null | undefined, string | null>;
  /** The checkout's address bucket (IPv4 address or IPv6 /64), for the opening's per-address rule. */
  address_bucket: ColumnType<string | null, string | null | undefined, string | null>;
  /** Where the shopper pays this order (its open payment page). */
  payment_url: ColumnType<string | null, string | null | undefined, string | null>;
  /** The buyer's e-mail, trimmed and in lower case (orders/buyer-keys.ts): the per-person limit's. */
  email_key: ColumnType<string | null, string | null | undefined, string | null>;
  /** The provider's fingerprint of the card that paid (the same card gives the same one). */
  card_fingerprint: ColumnType<string | null, string | null | undefined, string | null>;
  /** The card's kind as the provider told it ('credit', 'debit', 'prepaid', 'unknown'); null when not a card. */
  card_funding: ColumnType<string | null, string | null | undefined, string | null>;
  /** The shipping address folded: line 1, postal code and country (orders/buyer-keys.ts). */
  address_key: ColumnType<string | null, string | null | undefined, string | null>;
  /** The provider's payment (Stripe: the PaymentIntent), which a refund names. */
  payment_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** When the owner marked it 'Entregado' (issue 27); null: not marked. */
  delivered_at: NullableTimestamp;
  /** When the price of the pieces a late payment found gone was given back (by the provider or by hand); null: not yet. */
  /** 1: its delivery days are business days (shipped since migration 0042); 0: calendar days. */
  delivery_business_days: ColumnType<number, number | undefined, number>;
  missing_refunded_at: NullableTimestamp;
  /**
   * That refund through the payment provider (migration 0041): `pendiente` until it makes it,
   * `hecho` once made; null when none is asked (it is the owner's, by hand).
   */
  missing_refund_status: ColumnType<
    "pendiente" | "hecho" | null,
    "pendiente" | "hecho" | null | undefined,
    "pendiente" | "hecho" | null
  >;
  /** The provider's refund, once it accepted one (asked again how it stands). */
  missing_refund_id: ColumnType<string | null, string | null | undefined, string | null>;
  missing_refund_attempts: ColumnType<number, number | undefined, number>;
  /** Why the last attempt did not make it (shown on the desk); null when none failed. */
  missing_refund_error: ColumnType<string | null, string | null | undefined, string | null>;
  /** When the refunds job asks the provider next. */
  missing_refund_next_at: NullableTimestamp;
  /**
   * The generation of its 'Mi pedido' links (migration 0047): raised when the buyer's e-mail is
   * corrected or the owner renews the link, which stops every link signed before. 0: never.
   */
  link_version: ColumnType<number, number | undefined, number>;
  /** The shop's origin the order was bought at: its e-mails link 'Mi pedido' there. */
  site_url: ColumnType<string | null, string | null | undefined, string | null>;
  /** How the buyer is paying: 'oxxo' or 'spei' once a voucher was given (decision 42); null: by card. */
  payment_method: ColumnType<PaymentMethod | null, PaymentMethod | null | undefined, PaymentMethod | null>;
  /** The number the buyer pays with (the OXXO barcode's, or the transfer's reference). */
  voucher_reference: ColumnType<string | null, string | null | undefined, string | null>;
  /** The account a SPEI transfer goes to (18-digit CLABE). */
  voucher_clabe: ColumnType<string | null, string | null | undefined, string | null>;
  /** The provider's printable voucher or transfer instructions. */
  voucher_url: ColumnType<string | null, string | null | undefined, string | null>;
  /** When the voucher stops being payable: the pieces are held until then. */
  voucher_expires_at: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A buyer's 'Requiero factura' (CFDI 4.0 receptor data), one per order (decision 45). */
export interface InvoiceRequestsTable {
  order_id: string;
  rfc: string;
  /** The name or razón social as registered with the SAT: upper case, no type of society. */
  name: string;
  /** The fiscal address's postal code. */
  postal_code: string;
  /** c_RegimenFiscal code, e.g. '612'. */
  regimen: string;
  /** c_UsoCFDI code, e.g. 'G03'. */
  uso: string;
  email: string;
  requested_at: Timestamp;
  updated_at: Timestamp;
  status: InvoiceRequestStatus;
  /** The invoicing adapter that took it: 'local' records it for the accountant. */
  provider: string;
  provider_reference: string | null;
  notes: string | null;
}

/** recibida: recorded, to be stamped; timbrada: stamped by the provider; rechazada: refused by it. */
export type InvoiceRequestStatus = "recibida" | "timbrada" | "rechazada";

/** A delayed way to pay (decision 42): cash at an OXXO store, or a bank transfer (SPEI). */
export type PaymentMethod = "oxxo" | "spei";

/** An order's refund (decision 29): asked of the provider until it answers, then its record. */
export interface RefundsTable {
  order_id: string;
  amount_cents: number;
  currency: string;
  provider: string;
  reason: string;
  status: "pendiente" | "hecho";
  provider_refund_id: string | null;
  attempts: ColumnType<number, number | undefined, number>;
  last_error: string | null;
  next_attempt_at: NullableTimestamp;
  created_at: Timestamp;
  refunded_at: NullableTimestamp;
  /** 1: the order's pieces go back to stock when the refund is made (a cancellation by the shop). */
  restock_when_made: ColumnType<number, number | undefined, number>;
}

/**
 * A voucher (OXXO, SPEI) given to a buyer already at a drop's 'Máximo N por persona' (decisions 29
 * and 42): its payment to cancel at the provider (`pendiente`, asked again until it answers), then
 * its order cancelled (`hecho`, kept as the record of why).
 */
export interface VoucherCancellationsTable {
  order_id: string;
  reason: string;
  status: "pendiente" | "hecho";
  attempts: ColumnType<number, number | undefined, number>;
  last_error: string | null;
  next_attempt_at: NullableTimestamp;
  created_at: Timestamp;
  cancelled_at: NullableTimestamp;
}

/** Where a buyer's return stands (decision 48): one table of moves in app/returns/return-status.ts. */
export type ReturnStatus = "solicitada" | "aceptada" | "rechazada" | "recibida" | "reembolsada" | "cerrada";

/** A buyer's request to return pieces of an order, and its refund (decision 48). */
export interface ReturnsTable {
  id: string;
  order_id: string;
  status: ReturnStatus;
  reason: string;
  comment: ColumnType<string, string | undefined, string>;
  owner_message: ColumnType<string, string | undefined, string>;
  requested_at: Timestamp;
  decided_at: NullableTimestamp;
  received_at: NullableTimestamp;
  refund_cents: number;
  currency: string;
  refund_status: ColumnType<
    "pendiente" | "hecho" | null,
    "pendiente" | "hecho" | null | undefined,
    "pendiente" | "hecho" | null
  >;
  provider: ColumnType<string | null, string | null | undefined, string | null>;
  provider_refund_id: ColumnType<string | null, string | null | undefined, string | null>;
  refund_attempts: ColumnType<number, number | undefined, number>;
  refund_error: ColumnType<string | null, string | null | undefined, string | null>;
  next_attempt_at: NullableTimestamp;
  refunded_at: NullableTimestamp;
  updated_at: Timestamp;
}

/** The pieces of one order line a return gives back. */
export interface ReturnLinesTable {
  return_id: string;
  position: number;
  quantity: number;
  unit_price_cents: number;
  /** The owner's choice on receiving them: 1 back to stock (those that arrived), 0 not; null: not received yet. */
  restock: ColumnType<number | null, number | null | undefined, number | null>;
  /** How many of them arrived (0 to quantity), recorded on receiving them; null: not received yet. */
  received: ColumnType<number | null, number | null | undefined, number | null>;
  /** The edition numbers that came back (JSON list), when the owner had to say which; null: not asked. */
  numbers: ColumnType<string | null, string | null | undefined, string | null>;
}

export type LineStatus = "esperando" | "atendido" | "agotado" | "retirado";

/** A checkout waiting its turn for a drop's pieces (orders/line.server.ts). */
export interface DropLineTable {
  id: string;
  drop_id: string;
  browser: string;
  address_bucket: string;
  /** JSON: the cart's lines, [{ productId, dropId, quantity }]. */
  cart: string;
  origin: string;
  /** Its place: digits only, smaller first (orders/line-order.ts). */
  place: string;
  status: LineStatus;
  /** 'apartadas': every piece it wants is held by others for now. */
  note: string | null;
  order_id: string | null;
  payment_url: string | null;
  /** Why it ended without a hold, in the shopper's words. */
  message: string | null;
  joined_at: Timestamp;
  seen_at: Timestamp;
  updated_at: Timestamp;
}

export interface OrderLinesTable {
  order_id: string;
  position: number;
  product_id: string;
  drop_id: string;
  name: string;
  unit_price_cents: number;
  quantity: number;
  /** Pieces a payment that came after its hold expired could not take from stock. */
  missing: ColumnType<number, number | undefined, number>;
  /** The option's value it holds (decision 34): its id, and the value as chosen ('7'); null: none. */
  option_id: ColumnType<string | null, string | null | undefined, string | null>;
  option_value: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface OrderEventsTable {
  id: string;
  order_id: string;
  kind:
    | "enviado"
    | "guia_corregida"
    | "datos_corregidos"
    | "archivado"
    | "desarchivado"
    | "correo_reenviado"
    | "cancelado"
    | "reembolso_rechazado"
    | "reembolso_a_mano"
    | "faltantes_reembolsados"
    | "cobro_distinto"
    | "ficha_cancelada"
    | "entrega_registrada"
    | "enlace_renovado"
    | "borrado"
    | "devolucion_solicitada"
    | "devolucion_aceptada"
    | "devolucion_rechazada"
    | "devolucion_recibida"
    | "devolucion_reembolsada"
    | "devolucion_cerrada";
  detail: string;
  created_at: Timestamp;
}

export interface PaymentEventsTable {
  id: string;
  type: string;
  received_at: Timestamp;
}

export interface EmailsTable {
  id: string;
  /** Which template renders it (see the templates handed to the mail queue). */
  kind: string;
  recipient: string;
  order_id: string | null;
  /** Keeps one message from being queued twice (e.g. `confirmacion:<order>`); null when repeats are fine. */
  dedupe_key: string | null;
  /** JSON data for the template. */
  payload: ColumnType<string, string | undefined, string>;
  created_at: Timestamp;
  claimed_at: NullableTimestamp;
  /** Null: due now. Each claim sets when a failed or abandoned attempt may be retried. */
  next_attempt_at: NullableTimestamp;
  sent_at: NullableTimestamp;
  attempts: number;
  last_error: string | null;
  /** The subject its template gave it at the last attempt (null before the first): the mail log's. */
  subject: string | null;
}

/** Written by the sign-in library (better-auth); read by our own admin queries. */
export interface AuthUserTable {
  id: string;
  name: string;
  email: string;
  email_verified: boolean | number;
  image: string | null;
  role: string | null;
  banned: boolean | number | null;
  ban_reason: string | null;
  ban_expires: NullableTimestamp;
  /** The second factor is set up (and so asked at every sign-in). */
  two_factor_enabled: Generated<boolean | number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** The sign-in library's one-time values: sign-in challenges and trusted devices among them. */
export interface AuthVerificationTable {
  id: string;
  identifier: string;
  value: string;
  expires_at: Timestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** An administrator's authenticator secret and recovery codes, encrypted by the sign-in library. */
export interface AuthTwoFactorTable {
  id: string;
  user_id: string;
  secret: string;
  backup_codes: string;
  verified: Generated<boolean | number>;
  failed_verification_count: Generated<number>;
  locked_until: NullableTimestamp;
}

export interface AuthSessionTable {
  id: string;
  token: string;
  user_id: string;
  expires_at: Timestamp;
  ip_address: string | null;
  user_agent: string | null;
  impersonated_by: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface AuthAccountTable {
  id: string;
  account_id: string;
  provider_id: string;
  user_id: string;
  access_token: string | null;
  refresh_token: string | null;
  id_token: string | null;
  access_token_expires_at: NullableTimestamp;
  refresh_token_expires_at: NullableTimestamp;
  scope: string | null;
  /** scrypt: hex salt ":" hex key. */
  password: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface LoginFailuresTable {
  id: string;
  email: string;
  address: string;
  failed_at: Timestamp;
  /** The browser's id ('' without a signed cookie). */
  device: Generated<string>;
  /** 1 when the browser had signed in to this account before (decision 32). */
  known: Generated<number>;
}

/** A browser an administrator has signed in from (decision 32). */
export interface AdminDevicesTable {
  user_id: string;
  browser_id: string;
  trust_identifier: string | null;
  first_signed_in_at: Timestamp;
  last_signed_in_at: Timestamp;
}

/** The last app code's step an administrator used: codes work once (decision 32). */
export interface AdminCodeStepsTable {
  user_id: string;
  last_step: number;
}

/** 'Avísame': an address waiting for an upcoming drop (decision 16). */
export interface WaitlistSubscriptionsTable {
  id: string;
  drop_id: string;
  /** Trimmed and in lower case: one sign-up per address and drop. */
  email: string;
  status: "pendiente" | "confirmada" | "baja";
  site_url: string;
  created_at: Timestamp;
  confirmation_sent_at: Timestamp;
  confirmed_at: NullableTimestamp;
  unsubscribed_at: NullableTimestamp;
  notified_at: NullableTimestamp;
}

/** 'Avísame si vuelve' (decision 46): an address waiting for a sold-out piece, or size, to come back. */
export interface RestockRequestsTable {
  id: string;
  product_id: string;
  /** The size asked for (product_options.id); null for a piece without sizes. */
  option_id: string | null;
  /** Trimmed and in lower case: one request per address, piece and size. */
  email: string;
  status: "pendiente" | "confirmada" | "baja";
  site_url: string;
  /** When asked (again, after a notice): the request's place in the line. */
  created_at: Timestamp;
  confirmation_sent_at: Timestamp;
  confirmed_at: NullableTimestamp;
  unsubscribed_at: NullableTimestamp;
  notified_at: NullableTimestamp;
}

/** An 'Avísame' confirmation e-mail queued, as the caps count it (decision 31). Kept two days. */
export interface WaitlistConfirmationSendsTable {
  id: string;
  /** The recipient's mailbox, folded (app/lib/mailbox.ts). */
  mailbox: string;
  /** The sign-up's address bucket (IPv4 address or IPv6 /64); "" for sends from before the caps. */
  bucket: string;
  /** 1 when the shop asked for a proof of work and the sign-up came without one (no JavaScript). */
  without_proof: ColumnType<number, number | undefined, number>;
  drop_id: string | null;
  sent_at: Timestamp;
}

/** Sign-ups answered as accepted that sent no e-mail, per drop and cap (decision 31). */
export interface WaitlistMailRefusalsTable {
  drop_id: string;
  /** buzon: the recipient's mailbox; direccion: the address bucket; tienda: the shop's hour. */
  reason: "buzon" | "direccion" | "tienda";
  /** One of a few rows per drop and reason (summed when read), so a flood's increments spread. */
  shard: number;
  refusals: ColumnType<number, number | undefined, number>;
  last_at: Timestamp;
}

/** Configuración (decision 24): the one row of what the owner changed over the environment's values. */
export interface ShopSettingsTable {
  id: number;
  /** Grows with every save; app servers poll it to reload. */
  version: number;
  /** JSON of the changed fields only (app/settings/settings.ts `SettingsOverrides`). */
  overrides: string;
  updated_at: NullableTimestamp;
}

export interface KyselyDatabase {
  shop_settings: ShopSettingsTable;
  waitlist_subscriptions: WaitlistSubscriptionsTable;
  restock_requests: RestockRequestsTable;
  waitlist_confirmation_sends: WaitlistConfirmationSendsTable;
  waitlist_mail_refusals: WaitlistMailRefusalsTable;
  auth_user: AuthUserTable;
  auth_session: AuthSessionTable;
  auth_account: AuthAccountTable;
  auth_verification: AuthVerificationTable;
  auth_two_factor: AuthTwoFactorTable;
  login_failures: LoginFailuresTable;
  admin_devices: AdminDevicesTable;
  admin_code_steps: AdminCodeStepsTable;
  emails: EmailsTable;
  orders: OrdersTable;
  invoice_requests: InvoiceRequestsTable;
  refunds: RefundsTable;
  voucher_cancellations: VoucherCancellationsTable;
  returns: ReturnsTable;
  return_lines: ReturnLinesTable;
  drop_line: DropLineTable;
  order_events: OrderEventsTable;
  order_lines: OrderLinesTable;
  edition_numbers: EditionNumbersTable;
  payment_events: PaymentEventsTable;
  shop_meta: ShopMetaTable;
  media: MediaTable;
  drops: DropsTable;
  products: ProductsTable;
  product_options: ProductOptionsTable;
  product_images: ProductImagesTable;
}

export type DropRow = Selectable<DropsTable>;
export type ProductRow = Selectable<ProductsTable>;
export type MediaRow = Selectable<MediaTable>;
export type NewMediaRow = Insertable<MediaTable>;
