import { useCallback, useMemo } from "react";
import { useSearchParams } from "react-router";
import { sliceFromSearch, sliceToSearch, type DatasetSlice } from "./slice";

/** The dataset page's slice from the URL, and a setter that pushes a history entry (the back
 * button returns to the previous range) unless `replace` is asked. */
export function useDatasetSlice(): [DatasetSlice, (change: Partial<DatasetSlice>, replace?: boolean) => void] {
  const [search, setSearch] = useSearchParams();
  const slice = useMemo(() => sliceFromSearch(search), [search]);
  const update = useCallback(
    (change: Partial<DatasetSlice>, replace = false) => {
      setSearch((current) => sliceToSearch(current, { ...sliceFromSearch(current), ...change }), { replace });
    },
    [setSearch],
  );
  return [slice, update];
}
