/**
 * What an admin sees on every page while maintenance mode is on: everyone else gets the
 * maintenance page, so without this an admin could forget it is on.
 */
export function MaintenanceBanner() {
  return (
    <aside
      aria-label="Maintenance mode"
      className="border-b border-amber-300 bg-amber-100 px-3 py-2 text-sm text-amber-950 sm:px-6"
    >
      <p className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-2">
        <strong>Maintenance mode is on: only admins can use the site.</strong>
        <a href="/admin?tab=settings" className="font-semibold underline">
          Turn it off in the admin settings
        </a>
      </p>
    </aside>
  );
}
