import { Link } from "react-router";

/** The banner over a drop's preview (decision 38): what the page is, and the way back to the admin. */
export function PreviewBanner({ text, dropId }: { text: string; dropId: string }) {
  return (
    <aside
      aria-label="Vista previa"
      className="border-b border-gold-700 bg-sand px-4 py-3 text-sm text-ink"
      data-testid="preview-banner"
    >
      <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-2">
        <p>
          <strong className="font-semibold">Vista previa.</strong> {text}
        </p>
        <Link to={`/admin/drops/edit-drop/${dropId}`} className="underline underline-offset-2">
          Volver a la colección en la administración
        </Link>
      </div>
    </aside>
  );
}
