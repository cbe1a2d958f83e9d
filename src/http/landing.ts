/**
 * GET /api/v1 (and /api/v1/): where a client, or a person with curl, starts. Shaped as an OGC API -
 * Features landing page (OGC 17-069r4 §7.2: title, description, links by relation) so GIS clients open the
 * service directly: `service-desc` (the OpenAPI document), `conformance` and `data` (the collections) are
 * what they follow. The contract's own entry point, /events/live, stays linked (`items`). Every link answers 200.
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

/** Root-relative links; the HTTP adapter makes them absolute with the origin called (src/http/ogc-links.ts). */
export function landingPage(info: { title: string; description: string }): LandingPage {
  return {
    title: info.title,
    description: info.description,
    links: [
      { href: `${API_PREFIX}/`, rel: 'self', type: 'application/json', title: 'This document' },
      {
        href: `${API_PREFIX}/openapi.json`,
        rel: 'service-desc',
        type: 'application/vnd.oai.openapi+json;version=3.0',
        title: 'The API definition (OpenAPI 3.0)',
      },
      {
        href: `${API_PREFIX}/conformance`,
        rel: 'conformance',
        type: 'application/json',
        title: 'OGC API conformance classes implemented by this server',
      },
      {
        href: `${API_PREFIX}/collections`,
        rel: 'data',
        type: 'application/json',
        title: 'The feature collections (OGC API - Features): live events and their rings',
      },
      // Not `data`: a GIS client takes the first `data` link for the collections resource.
      {
        href: `${API_PREFIX}/events/live`,
        rel: 'items',
        type: 'application/geo+json',
        title: 'Live events (active and monitoring), newest first',
      },
      { href: `${API_PREFIX}/healthz`, rel: 'status', type: 'application/json', title: 'Liveness and readiness' },
    ],
  };
}
