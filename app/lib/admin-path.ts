/** Whether a path is in the admin area (and not, say, /administrador). */
export function isAdminPath(path: string): boolean {
  return path === "/admin" || path.startsWith("/admin/");
}
