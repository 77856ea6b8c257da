/// A started decode: rows in an interleaved format, or Y/Cb/Cr planes.
public enum DecodeStream {
    /// Interleaved rows, top to bottom.
    case rows(any RowDecoding)
    /// Y, Cb, Cr planes, row group by row group.
    case planes(any PlaneDecoding)
}
