// The admin pages' error screen: a 403 explains that the page is for admins; anything else is
// the usual error page for its status.
import { isRouteErrorResponse, useRouteError } from "@remix-run/react";
import { ErrorPage } from "~/components/error-page";

export function AdminErrorBoundary() {
  const error = useRouteError();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  return (
    <ErrorPage
      status={status}
      message={status === 403 ? "You need admin privileges to access this page." : undefined}
    />
  );
}
