/**
 * GET /api/v1 (and /api/v1/): where a client, or a person with curl, starts. Shaped as an OGC API -
 * Features landing page (title, description, links by relation) so GIS clients recognise it; the
 * conformance and collections resources of that standard are not served yet, so they are not linked:
 * every link here answers 200.
 */
import { API_PREFIX } from './routes.js';

export interface Link {
  href: string;
  rel: string;
  type: string;
  title: string;
}

export interface LandingPage {
  title: string;
  description: string;
  links: Link[];
}

/** Links are root-relative, like every link the API returns (a proxy may change the host). */
export function landingPage(info: { title: string; description: string }): LandingPage {
  return {
    title: info.title,
    description: info.description,
    links: [
      { href: `${API_PREFIX}/`, rel: 'self', type: 'application/json', title: 'This document' },
      { href: `${API_PREFIX}/openapi.json`, rel: 'service-desc', type: 'application/vnd.oai.openapi+json;version=3.0', title: 'The API definition (OpenAPI 3.0)' },
      { href: `${API_PREFIX}/events/live`, rel: 'data', type: 'application/geo+json', title: 'Live events (active and monitoring), newest first' },
      { href: `${API_PREFIX}/healthz`, rel: 'status', type: 'application/json', title: 'Liveness and readiness' },
    ],
  };
}
