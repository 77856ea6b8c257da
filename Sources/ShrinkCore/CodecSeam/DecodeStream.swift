/// A started decode: rows in an interleaved format, or Y/Cb/Cr planes.
package enum DecodeStream {
    case rows(any RowDecoding)
    case planes(any PlaneDecoding)
}
