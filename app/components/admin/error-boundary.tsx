// The admin pages' error screen: a 403 explains that the page is for admins; anything else is
// the usual error page for its status.
import { useRouteError } from "@remix-run/react";
import { ErrorPage, errorPageProps } from "~/components/error-page";

export function AdminErrorBoundary() {
  const shown = errorPageProps(useRouteError());
  return shown.status === 403 ? (
    <ErrorPage status={403} message="You need admin privileges to access this page." />
  ) : (
    <ErrorPage {...shown} />
  );
}
