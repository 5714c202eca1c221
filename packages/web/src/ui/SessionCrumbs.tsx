import { staticSource } from '../data/client';
import { listHref, sessionHref, shortRef } from './router';

/**
 * `Sessions / <session> / <page>` above a session's Waterfall or Files page, shown with the page's error too (a
 * session shared at the metadata tier has neither): the way back is there whatever the page could load.
 */
export function SessionCrumbs({ id, page }: { readonly id: string; readonly page: string }) {
  // an HTML export holds this one session: no list to go back to
  const exported = staticSource() !== undefined;
  return (
    <div className="crumbs">
      {!exported && (
        <>
          <a href={listHref()}>Sessions</a>
          <span>/</span>
        </>
      )}
      <a href={sessionHref(id)} title={id}>
        {shortRef(id)}
      </a>
      <span>/</span>
      <span>{page}</span>
    </div>
  );
}
