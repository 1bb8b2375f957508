//! Scalar element types of kernel arguments and buffers, their values as text, and `.npy`
//! files (NumPy's format, version 1.0 to 3.0: a magic string, a header dict, the raw data).

use std::fmt::Write;

use ferrocl_ir::float;
use ferrocl_ir::{Round, Type};

/// An OpenCL C scalar type (6.1.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scalar {
    Char,
    UChar,
    Short,
    UShort,
    Int,
    UInt,
    Long,
    ULong,
    Float,
    Double,
    /// `half` (cl_khr_fp16): IEEE binary16, written and read as its value.
    Half,
}

impl Scalar {
    pub const ALL: [Scalar; 11] = [
        Scalar::Char,
        Scalar::UChar,
        Scalar::Short,
        Scalar::UShort,
        Scalar::Int,
        Scalar::UInt,
        Scalar::Long,
        Scalar::ULong,
        Scalar::Float,
        Scalar::Double,
        Scalar::Half,
    ];

    /// The type's OpenCL C name, also accepting the spellings with `unsigned`.
    pub fn from_name(name: &str) -> Option<Scalar> {
        let canonical = match name {
            "unsignedchar" | "unsigned char" => "uchar",
            "unsignedshort" | "unsigned short" => "ushort",
            "unsignedint" | "unsigned int" | "unsigned" => "uint",
            "unsignedlong" | "unsigned long" => "ulong",
            other => other,
        };
        Scalar::ALL.into_iter().find(|s| s.name() == canonical)
    }

    pub fn name(self) -> &'static str {
        match self {
            Scalar::Char => "char",
            Scalar::UChar => "uchar",
            Scalar::Short => "short",
            Scalar::UShort => "ushort",
            Scalar::Int => "int",
            Scalar::UInt => "uint",
            Scalar::Long => "long",
            Scalar::ULong => "ulong",
            Scalar::Float => "float",
            Scalar::Double => "double",
            Scalar::Half => "half",
        }
    }

    /// 6.1.1: the size in bytes.
    pub fn size(self) -> usize {
        match self {
            Scalar::Char | Scalar::UChar => 1,
            Scalar::Short | Scalar::UShort | Scalar::Half => 2,
            Scalar::Int | Scalar::UInt | Scalar::Float => 4,
            Scalar::Long | Scalar::ULong | Scalar::Double => 8,
        }
    }

    pub fn is_float(self) -> bool {
        matches!(self, Scalar::Float | Scalar::Double | Scalar::Half)
    }

    fn signed(self) -> bool {
        matches!(
            self,
            Scalar::Char | Scalar::Short | Scalar::Int | Scalar::Long
        )
    }

    /// NumPy's `descr` of the type, little-endian.
    pub fn npy_descr(self) -> &'static str {
        match self {
            Scalar::Char => "|i1",
            Scalar::UChar => "|u1",
            Scalar::Short => "<i2",
            Scalar::UShort => "<u2",
            Scalar::Int => "<i4",
            Scalar::UInt => "<u4",
            Scalar::Long => "<i8",
            Scalar::ULong => "<u8",
            Scalar::Float => "<f4",
            Scalar::Double => "<f8",
            Scalar::Half => "<f2",
        }
    }

    fn from_npy_descr(descr: &str) -> Option<Scalar> {
        let normal = descr.replace(['<', '|', '='], "");
        Scalar::ALL
            .into_iter()
            .find(|s| s.npy_descr().replace(['<', '|'], "") == normal)
    }

    /// The bytes of a value written in text (`5`, `-3`, `0x1f`, `2.5`, `1e-3`), or why it is
    /// not one of this type.
    pub fn parse(self, text: &str) -> Result<Vec<u8>, String> {
        let text = text.trim();
        if self.is_float() {
            let value: f64 = text
                .parse()
                .map_err(|_| format!("'{text}' is not a {} number", self.name()))?;
            return Ok(self.encode_f64(value));
        }
        let (negative, digits) = match text.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, text.strip_prefix('+').unwrap_or(text)),
        };
        let magnitude = if let Some(hex) = digits
            .strip_prefix("0x")
            .or_else(|| digits.strip_prefix("0X"))
        {
            i128::from_str_radix(hex, 16)
        } else {
            digits.parse::<i128>()
        }
        .map_err(|_| format!("'{text}' is not an integer"))?;
        let value = if negative { -magnitude } else { magnitude };
        let bits = 8 * self.size() as u32;
        let (min, max) = if self.signed() {
            (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
        } else {
            (0, (1i128 << bits) - 1)
        };
        if value < min || value > max {
            return Err(format!(
                "{text} is out of the range of {} ({min} to {max})",
                self.name()
            ));
        }
        Ok((value as u64).to_le_bytes()[..self.size()].to_vec())
    }

    /// The bytes of the value nearest to `value` (integers truncate and wrap).
    pub fn encode_f64(self, value: f64) -> Vec<u8> {
        match self {
            Scalar::Float => (value as f32).to_le_bytes().to_vec(),
            Scalar::Double => value.to_le_bytes().to_vec(),
            // Rounded once, to nearest even, from the double.
            Scalar::Half => (float::from_f64(value, Type::F16, Round::Rte) as u16)
                .to_le_bytes()
                .to_vec(),
            _ => ((value as i64) as u64).to_le_bytes()[..self.size()].to_vec(),
        }
    }

    /// One element, read from its little-endian bytes, as text.
    pub fn format(self, bytes: &[u8]) -> String {
        let mut word = [0u8; 8];
        word[..bytes.len()].copy_from_slice(bytes);
        let raw = u64::from_le_bytes(word);
        match self {
            Scalar::Float => format!("{}", f32::from_bits(raw as u32)),
            Scalar::Double => format!("{}", f64::from_bits(raw)),
            // Exactly: every half is a double.
            Scalar::Half => format!("{}", float::f16_to_f64(raw as u16)),
            Scalar::Char => (raw as i8).to_string(),
            Scalar::Short => (raw as i16).to_string(),
            Scalar::Int => (raw as i32).to_string(),
            Scalar::Long => (raw as i64).to_string(),
            _ => raw.to_string(),
        }
    }
}

impl std::fmt::Display for Scalar {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Every element of a buffer, as text separated by spaces.
pub fn format_all(ty: Scalar, bytes: &[u8]) -> String {
    let mut out = String::new();
    for (i, element) in bytes.chunks_exact(ty.size()).enumerate() {
        if i > 0 {
            out.push(' ');
        }
        let _ = write!(out, "{}", ty.format(element));
    }
    out
}

/// A `.npy` array read from a file: its element type and raw data.
pub struct Npy {
    pub ty: Scalar,
    pub data: Vec<u8>,
}

/// Reads an `.npy` file's bytes: a C-ordered array of a scalar type this tool knows.
pub fn parse_npy(bytes: &[u8]) -> Result<Npy, String> {
    if bytes.len() < 10 || &bytes[..6] != b"\x93NUMPY" {
        return Err("not an .npy file (no \\x93NUMPY magic)".to_string());
    }
    let major = bytes[6];
    let (header_len, start): (usize, usize) = match major {
        1 => (u16::from_le_bytes([bytes[8], bytes[9]]) as usize, 10),
        2 | 3 if bytes.len() >= 12 => (
            u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]) as usize,
            12,
        ),
        _ => return Err(format!("unsupported .npy version {major}")),
    };
    let end = start
        .checked_add(header_len)
        .filter(|&e| e <= bytes.len())
        .ok_or("truncated .npy header")?;
    let header = String::from_utf8_lossy(&bytes[start..end]);
    let field = |key: &str| -> Option<String> {
        let at = header.find(&format!("'{key}'"))? + key.len() + 2;
        let rest = header[at..].trim_start().strip_prefix(':')?.trim_start();
        Some(rest.to_string())
    };
    let descr = field("descr").ok_or(".npy header has no 'descr'")?;
    let descr = descr
        .strip_prefix('\'')
        .and_then(|d| d.split('\'').next())
        .ok_or(".npy 'descr' is not a string")?;
    if descr.starts_with('>') && !descr.ends_with('1') {
        return Err(format!(".npy data is big-endian ({descr})"));
    }
    let ty = Scalar::from_npy_descr(descr)
        .ok_or_else(|| format!(".npy element type '{descr}' is not an OpenCL C scalar type"))?;
    let fortran = field("fortran_order").unwrap_or_default();
    let shape = field("shape").ok_or(".npy header has no 'shape'")?;
    let shape = shape
        .strip_prefix('(')
        .and_then(|s| s.split(')').next())
        .ok_or(".npy 'shape' is not a tuple")?;
    let dims: Vec<usize> = shape
        .split(',')
        .map(str::trim)
        .filter(|d| !d.is_empty())
        .map(|d| {
            d.parse::<usize>()
                .map_err(|_| format!(".npy shape has '{d}'"))
        })
        .collect::<Result<_, _>>()?;
    if fortran.starts_with("True") && dims.iter().filter(|&&d| d > 1).count() > 1 {
        return Err(".npy array is in Fortran order".to_string());
    }
    let count = dims
        .iter()
        .try_fold(1usize, |a, &d| a.checked_mul(d))
        .ok_or(".npy shape too large")?;
    let size = count.checked_mul(ty.size()).ok_or(".npy shape too large")?;
    let data = &bytes[end..];
    if data.len() < size {
        return Err(format!(
            ".npy data holds {} bytes, its shape needs {size}",
            data.len()
        ));
    }
    Ok(Npy {
        ty,
        data: data[..size].to_vec(),
    })
}

/// A 1-D `.npy` file (version 1.0) of the data.
pub fn write_npy(ty: Scalar, data: &[u8]) -> Vec<u8> {
    let count = data.len() / ty.size();
    let mut header = format!(
        "{{'descr': '{}', 'fortran_order': False, 'shape': ({count},), }}",
        ty.npy_descr()
    );
    // The header is padded with spaces and ends with a newline so the data starts on a
    // multiple of 64 bytes.
    while (10 + header.len() + 1) % 64 != 0 {
        header.push(' ');
    }
    header.push('\n');
    let mut out = b"\x93NUMPY\x01\x00".to_vec();
    out.extend_from_slice(&(header.len() as u16).to_le_bytes());
    out.extend_from_slice(header.as_bytes());
    out.extend_from_slice(data);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scalars_parse_in_range_only() {
        assert_eq!(Scalar::Int.parse("-2").unwrap(), (-2i32).to_le_bytes());
        assert_eq!(Scalar::UChar.parse("0xff").unwrap(), [255]);
        assert!(Scalar::UChar
            .parse("256")
            .unwrap_err()
            .contains("out of the range"));
        assert!(Scalar::UInt.parse("-1").is_err());
        assert!(Scalar::Int.parse("2.5").is_err());
        assert_eq!(Scalar::Float.parse("2.5").unwrap(), 2.5f32.to_le_bytes());
        assert_eq!(Scalar::from_name("unsignedint"), Some(Scalar::UInt));
        assert_eq!(Scalar::from_name("float4"), None);
    }

    #[test]
    fn npy_round_trips() {
        let data: Vec<u8> = [1.5f32, -2.0, 3.25]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        let file = write_npy(Scalar::Float, &data);
        assert_eq!((file.len() - data.len()) % 64, 0);
        let back = parse_npy(&file).unwrap();
        assert_eq!(back.ty, Scalar::Float);
        assert_eq!(back.data, data);
        assert_eq!(format_all(back.ty, &back.data), "1.5 -2 3.25");
        assert!(parse_npy(b"hello world").is_err());
        assert!(parse_npy(&file[..file.len() - 1]).is_err());
    }
}
