/* zlib_name_mangling.h has been automatically generated from
 * zlib_name_mangling.h.in because ZLIB_SYMBOL_PREFIX was set.
 */

#ifndef ZLIB_NAME_MANGLING_H
#define ZLIB_NAME_MANGLING_H

/* all linked symbols and init macros */
#define _dist_code            cshrink_z__dist_code
#define _length_code          cshrink_z__length_code
#define _tr_align             cshrink_z__tr_align
#define _tr_flush_bits        cshrink_z__tr_flush_bits
#define _tr_flush_block       cshrink_z__tr_flush_block
#define _tr_init              cshrink_z__tr_init
#define _tr_stored_block      cshrink_z__tr_stored_block
#define _tr_tally             cshrink_z__tr_tally
#define adler32               cshrink_z_adler32
#define adler32_combine       cshrink_z_adler32_combine
#define adler32_combine64     cshrink_z_adler32_combine64
#define adler32_z             cshrink_z_adler32_z
#ifndef Z_SOLO
#  define compress              cshrink_z_compress
#  define compress2             cshrink_z_compress2
#  define compressBound         cshrink_z_compressBound
#endif
#define crc32                 cshrink_z_crc32
#define crc32_combine         cshrink_z_crc32_combine
#define crc32_combine64       cshrink_z_crc32_combine64
#define crc32_combine_gen     cshrink_z_crc32_combine_gen
#define crc32_combine_gen64   cshrink_z_crc32_combine_gen64
#define crc32_combine_op      cshrink_z_crc32_combine_op
#define crc32_z               cshrink_z_crc32_z
#define deflate               cshrink_z_deflate
#define deflateBound          cshrink_z_deflateBound
#define deflateCopy           cshrink_z_deflateCopy
#define deflateEnd            cshrink_z_deflateEnd
#define deflateGetDictionary  cshrink_z_deflateGetDictionary
#define deflateInit           cshrink_z_deflateInit
#define deflateInit2          cshrink_z_deflateInit2
#define deflateInit2_         cshrink_z_deflateInit2_
#define deflateInit_          cshrink_z_deflateInit_
#define deflateParams         cshrink_z_deflateParams
#define deflatePending        cshrink_z_deflatePending
#define deflatePrime          cshrink_z_deflatePrime
#define deflateReset          cshrink_z_deflateReset
#define deflateResetKeep      cshrink_z_deflateResetKeep
#define deflateSetDictionary  cshrink_z_deflateSetDictionary
#define deflateSetHeader      cshrink_z_deflateSetHeader
#define deflateTune           cshrink_z_deflateTune
#define deflate_copyright     cshrink_z_deflate_copyright
#define fill_window           cshrink_z_fill_window
#define fixedtables           cshrink_z_fixedtables
#define flush_pending         cshrink_z_flush_pending
#define get_crc_table         cshrink_z_get_crc_table
#ifndef Z_SOLO
#  define gz_error              cshrink_z_gz_error
#  define gz_strwinerror        cshrink_z_gz_strwinerror
#  define gzbuffer              cshrink_z_gzbuffer
#  define gzclearerr            cshrink_z_gzclearerr
#  define gzclose               cshrink_z_gzclose
#  define gzclose_r             cshrink_z_gzclose_r
#  define gzclose_w             cshrink_z_gzclose_w
#  define gzdirect              cshrink_z_gzdirect
#  define gzdopen               cshrink_z_gzdopen
#  define gzeof                 cshrink_z_gzeof
#  define gzerror               cshrink_z_gzerror
#  define gzflush               cshrink_z_gzflush
#  define gzfread               cshrink_z_gzfread
#  define gzfwrite              cshrink_z_gzfwrite
#  define gzgetc                cshrink_z_gzgetc
#  define gzgetc_               cshrink_z_gzgetc_
#  define gzgets                cshrink_z_gzgets
#  define gzoffset              cshrink_z_gzoffset
#  define gzoffset64            cshrink_z_gzoffset64
#  define gzopen                cshrink_z_gzopen
#  define gzopen64              cshrink_z_gzopen64
#  ifdef _WIN32
#    define gzopen_w              cshrink_z_gzopen_w
#  endif
#  define gzprintf              cshrink_z_gzprintf
#  define gzputc                cshrink_z_gzputc
#  define gzputs                cshrink_z_gzputs
#  define gzread                cshrink_z_gzread
#  define gzrewind              cshrink_z_gzrewind
#  define gzseek                cshrink_z_gzseek
#  define gzseek64              cshrink_z_gzseek64
#  define gzsetparams           cshrink_z_gzsetparams
#  define gztell                cshrink_z_gztell
#  define gztell64              cshrink_z_gztell64
#  define gzungetc              cshrink_z_gzungetc
#  define gzvprintf             cshrink_z_gzvprintf
#  define gzwrite               cshrink_z_gzwrite
#endif
#define inflate               cshrink_z_inflate
#define inflateBack           cshrink_z_inflateBack
#define inflateBackEnd        cshrink_z_inflateBackEnd
#define inflateBackInit       cshrink_z_inflateBackInit
#define inflateBackInit_      cshrink_z_inflateBackInit_
#define inflateCodesUsed      cshrink_z_inflateCodesUsed
#define inflateCopy           cshrink_z_inflateCopy
#define inflateEnd            cshrink_z_inflateEnd
#define inflateGetDictionary  cshrink_z_inflateGetDictionary
#define inflateGetHeader      cshrink_z_inflateGetHeader
#define inflateInit           cshrink_z_inflateInit
#define inflateInit2          cshrink_z_inflateInit2
#define inflateInit2_         cshrink_z_inflateInit2_
#define inflateInit_          cshrink_z_inflateInit_
#define inflateMark           cshrink_z_inflateMark
#define inflatePrime          cshrink_z_inflatePrime
#define inflateReset          cshrink_z_inflateReset
#define inflateReset2         cshrink_z_inflateReset2
#define inflateResetKeep      cshrink_z_inflateResetKeep
#define inflateSetDictionary  cshrink_z_inflateSetDictionary
#define inflateSync           cshrink_z_inflateSync
#define inflateSyncPoint      cshrink_z_inflateSyncPoint
#define inflateUndermine      cshrink_z_inflateUndermine
#define inflateValidate       cshrink_z_inflateValidate
#define inflate_copyright     cshrink_z_inflate_copyright
#define inflate_ensure_window cshrink_z_inflate_ensure_window
#define inflate_fast          cshrink_z_inflate_fast
#define inflate_table         cshrink_z_inflate_table
#define read_buf              cshrink_z_read_buf
#ifndef Z_SOLO
#  define uncompress            cshrink_z_uncompress
#  define uncompress2           cshrink_z_uncompress2
#endif
#define zError                cshrink_z_zError
#ifndef Z_SOLO
#  define zcalloc               cshrink_z_zcalloc
#  define zcfree                cshrink_z_zcfree
#endif
#define zlibCompileFlags      cshrink_z_zlibCompileFlags
#define zlibVersion           cshrink_z_zlibVersion

/* all zlib typedefs in zlib.h and zconf.h */
#define Byte                  cshrink_z_Byte
#define Bytef                 cshrink_z_Bytef
#define alloc_func            cshrink_z_alloc_func
#define charf                 cshrink_z_charf
#define free_func             cshrink_z_free_func
#ifndef Z_SOLO
#  define gzFile                cshrink_z_gzFile
#endif
#define gz_header             cshrink_z_gz_header
#define gz_headerp            cshrink_z_gz_headerp
#define in_func               cshrink_z_in_func
#define intf                  cshrink_z_intf
#define out_func              cshrink_z_out_func
#define uInt                  cshrink_z_uInt
#define uIntf                 cshrink_z_uIntf
#define uLong                 cshrink_z_uLong
#define uLongf                cshrink_z_uLongf
#define voidp                 cshrink_z_voidp
#define voidpc                cshrink_z_voidpc
#define voidpf                cshrink_z_voidpf

/* all zlib structs in zlib.h and zconf.h */
#define gz_header_s           cshrink_z_gz_header_s
#define internal_state        cshrink_z_internal_state

/* all zlib structs in zutil.h */
#define z_errmsg              cshrink_z_z_errmsg
#define z_vstring             cshrink_z_z_vstring
#define zlibng_version        cshrink_z_zlibng_version

/* zlib-ng specific symbols */
#define zng_alloc_aligned     cshrink_z_zng_alloc_aligned
#define zng_free_aligned      cshrink_z_zng_free_aligned

#endif /* ZLIB_NAME_MANGLING_H */
